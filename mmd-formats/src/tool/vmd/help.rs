//! The exit codes of `mmd vmd` and of each of its tools, as their `--help` shows them:
//! each tool lists only the reasons it can fail for.

/// The exit codes of `mmd vmd`, in brief (each tool's `--help` has its own).
pub const EXIT_CODES: &str = "\
Exit codes: 0 = done; 1 = an input does not read as a VMD or the edit cannot be made;
2 = usage error, an input that cannot be read or is not a VMD file, or an output that
cannot be written (see each tool's --help).";

/// The exit codes of `mmd vmd mirror`.
pub const MIRROR: &str = "\
Exit codes:
  0  the result was written (or, with --dry-run, computed)
  1  the input does not read as a VMD (the error names its offset and field), or the
     result cannot be written as one
  2  usage error; the input cannot be read or is not a VMD file (another format, or
     none); the output cannot be written, or -o names the input without --in-place";

/// The exit codes of `mmd vmd trim`.
pub const TRIM: &str = "\
Exit codes:
  0  the result was written (or, with --dry-run, computed)
  1  the input does not read as a VMD; FROM is after TO; or no key of the motion lies
     in FROM..=TO, so nothing would be left (nothing is written; the message gives the
     motion's frame range)
  2  usage error (FROM and TO are whole frames from 0 to 4294967295); the input cannot
     be read or is not a VMD file; the output cannot be written, or -o names the input
     without --in-place";

/// The exit codes of `mmd vmd merge`.
pub const MERGE: &str = "\
Exit codes:
  0  the result was written (or, with --dry-run, computed)
  1  an input does not read as a VMD; the offset moves a key of the second motion past
     frame 4294967295 (without --offset: the first motion ends at that frame); or the
     result cannot be written as a VMD
  2  usage error; an input cannot be read or is not a VMD file; the output cannot be
     written, or -o names an input without --in-place";

/// The exit codes of `mmd vmd speed`.
pub const SPEED: &str = "\
Exit codes:
  0  the result was written (or, with --dry-run, computed)
  1  the input does not read as a VMD; FACTOR is not above 0; or a key would move past
     frame 4294967295
  2  usage error (FACTOR that is not a finite number); the input cannot be read or is
     not a VMD file; the output cannot be written, or -o names the input without
     --in-place";

/// The exit codes of `mmd vmd fill`.
pub const FILL: &str = "\
Exit codes:
  0  the result was written (or, with --dry-run, computed); the report says when no key
     was missing and the result is the input unchanged
  1  the input does not read as a VMD; --start is after --end; or the result cannot be
     written as a VMD
  2  usage error; the input cannot be read or is not a VMD file; the output cannot be
     written, or -o names the input without --in-place";

/// The exit codes of `mmd vmd sample`.
pub const SAMPLE: &str = "\
Exit codes:
  0  the value was printed (a frame before 0 or past 4294967295 is sampled with a
     warning on stderr: the track holds its first or last key's value there)
  1  the input does not read as a VMD, or the track has no key
  2  usage error (a --frame that is not a finite number); the input cannot be read or is
     not a VMD file";

/// The rules and exit codes of `mmd vmd bake-ik`.
pub const BAKE_IK: &str = "\
Every bone that is a link of an IK chain gets a rotation key at every frame from the
motion's first to its last bone key: the rotation IK gives it at that frame (evaluated as
`mmd pose` does), times the motion's own; its movement keys the motion's. Its old keys are
replaced. Every IK / show key then switches those chains' IK bones off (a key at the first
frame is added when the motion has none). Played with IK off, the result puts every bone
where the original puts it with IK on, at every whole frame (between two frames the baked
keys interpolate linearly). A chain whose IK bone's name does not fit the IK block's 20
bytes, or with a link whose name does not fit a bone key's 15 (Shift_JIS), cannot be
baked: it stays on, and the report names it. A bake of more than 4,000,000 keys is refused.

Exit codes:
  0  the result was written (or, with --dry-run, computed)
  1  MOTION does not read as a VMD or MODEL as its format; the bake would write more than
     4,000,000 keys; or the result cannot be written as a VMD
  2  usage error; MODEL cannot be read or is not a model (PMX, PMD); MOTION cannot be read
     or is not a VMD file; the output cannot be written, or -o names an input without
     --in-place";
