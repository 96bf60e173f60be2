//! A mutation fuzzer for the mmd-formats readers and writers that runs on the stable
//! toolchain (no cargo-fuzz, no nightly).
//!
//! `mmd-fuzz [--format pmx|pmd|vmd|vpd|all] [--seconds N] [--seed S] [--corpus DIR]`
//!
//! Seeds are the built-in samples (`mmd_formats::samples::all()`) plus every file under
//! `--corpus`. Each iteration mutates a seed 1-8 times and checks, under `catch_unwind`:
//! the round trip is `ByteExact` or `ReadError` (never `WriteError`, `Differs` or a panic);
//! a read error's offset is within the input; read -> write -> read -> write gives the same
//! bytes twice; the JSON dump of an input that reads builds back into its bytes; an input that reads, cut short, reads or fails as a truncation (never as
//! corrupt data); `format::info` and `format::field_at` do not panic; a model that reads
//! evaluates to a pose (`mmd_formats::pose`) with finite rotations, without panicking. A failing input is
//! written under the temporary directory and the process exits 1. See `tests/FUZZING.md`.

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use mmd_formats::inspect::{self as format, CheckOutcome, Format};

/// The formats, in report order.
const FORMATS: [Format; 4] = [Format::Pmx, Format::Pmd, Format::Vmd, Format::Vpd];

/// The most seeds kept per format (originals plus mutants that read).
const POOL_LIMIT: usize = 4096;

/// The largest input a mutation may grow to (keeps inserts and duplications bounded).
const MAX_LEN: usize = 64 << 20;

/// A xorshift64* generator: small, deterministic from its seed, good enough for fuzzing.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        // Mix the seed so that 0 and small seeds give a non-zero, well-spread state.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Rng(if z == 0 { 1 } else { z })
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`0` when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn byte(&mut self) -> u8 {
        (self.next() >> 56) as u8
    }
}

/// Counters for one format.
#[derive(Default)]
struct Stats {
    execs: u64,
    ok: u64,
    read_errors: u64,
    new_seeds: u64,
}

/// The parsed command line.
struct Args {
    formats: Vec<Format>,
    seconds: u64,
    seed: u64,
    corpus: Option<PathBuf>,
}

fn usage() -> String {
    "usage: mmd-fuzz [--format pmx|pmd|vmd|vpd|all] [--seconds N] [--seed S] [--corpus DIR]"
        .to_string()
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        formats: FORMATS.to_vec(),
        seconds: 60,
        seed: 0,
        corpus: None,
    };
    let mut seed_given = false;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "-h" || flag == "--help" {
            return Err(usage());
        }
        let value = it
            .next()
            .ok_or_else(|| format!("{flag} needs a value\n{}", usage()))?;
        match flag.as_str() {
            "--format" => {
                args.formats = match value.to_ascii_lowercase().as_str() {
                    "all" => FORMATS.to_vec(),
                    "pmx" => vec![Format::Pmx],
                    "pmd" => vec![Format::Pmd],
                    "vmd" => vec![Format::Vmd],
                    "vpd" => vec![Format::Vpd],
                    other => return Err(format!("unknown format {other:?}\n{}", usage())),
                }
            }
            "--seconds" => {
                args.seconds = value
                    .parse()
                    .map_err(|e| format!("--seconds {value:?}: {e}"))?
            }
            "--seed" => {
                args.seed = value
                    .parse()
                    .map_err(|e| format!("--seed {value:?}: {e}"))?;
                seed_given = true;
            }
            "--corpus" => args.corpus = Some(PathBuf::from(value)),
            other => return Err(format!("unknown option {other:?}\n{}", usage())),
        }
    }
    if !seed_given {
        args.seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1);
    }
    Ok(args)
}

/// The format of a corpus file: by signature, else by extension.
fn format_of(path: &Path, bytes: &[u8]) -> Option<Format> {
    if let Some(f) = Format::detect(bytes) {
        return Some(f);
    }
    let ext = path.extension()?.to_string_lossy().to_ascii_lowercase();
    match ext.as_str() {
        "pmx" => Some(Format::Pmx),
        "pmd" => Some(Format::Pmd),
        "vmd" => Some(Format::Vmd),
        "vpd" => Some(Format::Vpd),
        _ => None,
    }
}

/// Every regular file under `dir`, recursively, sorted for a reproducible seed order.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            files_under(&path, out)?;
        } else if path.is_file() {
            out.push(path);
        }
    }
    Ok(())
}

/// Index of `format` in [`FORMATS`].
fn slot(format: Format) -> usize {
    FORMATS.iter().position(|&f| f == format).unwrap_or(0)
}

/// An interesting 32-bit value: a boundary, or a small count.
fn interesting_u32(rng: &mut Rng) -> u32 {
    match rng.below(6) {
        0 => 0,
        1 => 1,
        2 => 0x7FFF_FFFF,
        3 => 0xFFFF_FFFF,
        4 => 0x8000_0000,
        _ => rng.below(260) as u32,
    }
}

/// Applies one random mutation to `data`; `other` is another seed of the same format.
fn mutate_once(rng: &mut Rng, data: &mut Vec<u8>, other: &[u8]) {
    let len = data.len();
    match rng.below(10) {
        // Flip one bit.
        0 if len > 0 => {
            let i = rng.below(len);
            data[i] ^= 1 << rng.below(8);
        }
        // Set a byte to a boundary or random value.
        1 if len > 0 => {
            let i = rng.below(len);
            data[i] = match rng.below(5) {
                0 => 0,
                1 => 0xFF,
                2 => 0x7F,
                3 => 0x80,
                _ => rng.byte(),
            };
        }
        // Overwrite 4 bytes with an interesting little-endian u32.
        2 | 3 if len >= 4 => {
            let i = rng.below(len - 3);
            data[i..i + 4].copy_from_slice(&interesting_u32(rng).to_le_bytes());
        }
        // Insert a run of bytes (random, or one repeated value).
        4 if len < MAX_LEN => {
            let at = rng.below(len + 1);
            let n = 1 + rng.below(64);
            let run: Vec<u8> = if rng.below(2) == 0 {
                (0..n).map(|_| rng.byte()).collect()
            } else {
                vec![rng.byte(); n]
            };
            data.splice(at..at, run);
        }
        // Delete a run of bytes.
        5 if len > 0 => {
            let at = rng.below(len);
            let n = 1 + rng.below((len - at).min(64));
            data.drain(at..at + n);
        }
        // Truncate.
        6 if len > 0 => {
            let keep = rng.below(len);
            data.truncate(keep);
        }
        // Duplicate a chunk somewhere else.
        7 if len > 0 && len < MAX_LEN => {
            let from = rng.below(len);
            let n = 1 + rng.below((len - from).min(256));
            let chunk = data[from..from + n].to_vec();
            let at = rng.below(len + 1);
            data.splice(at..at, chunk);
        }
        // Splice: our head, the other seed's tail.
        8 if !other.is_empty() => {
            let cut = rng.below(len + 1);
            let from = rng.below(other.len());
            data.truncate(cut);
            let room = MAX_LEN.saturating_sub(data.len());
            let tail = &other[from..];
            data.extend_from_slice(&tail[..tail.len().min(room)]);
        }
        // Copy a chunk of the other seed over ours at the same offset range.
        _ if len > 0 && !other.is_empty() => {
            let from = rng.below(other.len());
            let at = rng.below(len);
            let n = (1 + rng.below(64)).min(other.len() - from).min(len - at);
            data[at..at + n].copy_from_slice(&other[from..from + n]);
        }
        _ => {
            // Empty input and nothing to splice: grow it.
            data.push(rng.byte());
        }
    }
}

/// Reads and writes `bytes` as `format` (`None`: the read failed).
fn reread(format: Format, bytes: &[u8]) -> Option<mmd_formats::Result<Vec<u8>>> {
    use mmd_formats::{pmd::Pmd, pmx::Pmx, vmd::Vmd, vpd::Vpd};
    match format {
        Format::Pmx => Pmx::from_bytes(bytes).ok().map(|m| m.to_bytes()),
        Format::Pmd => Pmd::from_bytes(bytes).ok().map(|m| m.to_bytes()),
        Format::Vmd => Vmd::from_bytes(bytes).ok().map(|v| v.to_bytes()),
        Format::Vpd => Vpd::from_bytes(bytes).ok().map(|v| v.to_bytes()),
        _ => None,
    }
}

/// Checks every property on one input. `Ok(true)`: it read; `Ok(false)`: read error;
/// `Err`: a property failed, with a description.
fn check(format: Format, bytes: &[u8], probe: u64) -> Result<bool, String> {
    let read_ok = match format::check_roundtrip(format, bytes) {
        CheckOutcome::ByteExact => true,
        CheckOutcome::ReadError(e) => {
            if e.offset() > bytes.len() as u64 {
                return Err(format!(
                    "read error offset {} is past the input's {} bytes: {e}",
                    e.offset(),
                    bytes.len()
                ));
            }
            false
        }
        CheckOutcome::WriteError(e) => return Err(format!("write error after a read: {e}")),
        CheckOutcome::Differs {
            offset,
            written_len,
        } => {
            return Err(format!(
                "written bytes differ from the input at offset {offset} \
                 (input {} bytes, written {written_len})",
                bytes.len()
            ))
        }
    };
    if read_ok {
        // read -> write -> read -> write: both writes must agree (bytes, not values,
        // since NaN floats are not equal to themselves).
        let first = match reread(format, bytes) {
            Some(Ok(w)) => w,
            Some(Err(e)) => return Err(format!("first write failed: {e}")),
            None => return Err("read failed although check_roundtrip read it".into()),
        };
        match reread(format, &first) {
            Some(Ok(second)) if second == first => {}
            Some(Ok(second)) => {
                return Err(format!(
                    "re-written bytes differ ({} then {} bytes)",
                    first.len(),
                    second.len()
                ))
            }
            Some(Err(e)) => return Err(format!("second write failed: {e}")),
            None => return Err("the written bytes do not read back".into()),
        }
        // Its JSON form builds back into the same bytes (`mmd dump --json`, `mmd build`).
        let built = format
            .json_tree(bytes)
            .map(|tree| format.build(&mmd_formats::json::value_to_string(&tree)));
        match built {
            Ok(Ok(b)) if b == bytes => {}
            Ok(Ok(b)) => {
                return Err(format!(
                    "dump --json then build gives other bytes ({} then {} bytes)",
                    bytes.len(),
                    b.len()
                ))
            }
            Ok(Err(e)) => return Err(format!("dump --json does not build back: {e}")),
            Err(e) => return Err(format!("dump --json fails on a file that reads: {e}")),
        }
        // Cut at the probe: the start of a file that reads still reads, or fails as a
        // truncation that ends where the cut is (never as corrupt data).
        let cut = probe.min(bytes.len() as u64);
        if let CheckOutcome::ReadError(e) = format::check_roundtrip(format, &bytes[..cut as usize])
        {
            if !e.is_truncated() || e.input_end() != Some(cut) {
                return Err(format!(
                    "cut at {cut} of a file that reads: not reported as a truncation \
                     ending there (truncated {}, end {:?}): {e}",
                    e.is_truncated(),
                    e.input_end()
                ));
            }
        }
    }
    let info = format::info(format, bytes);
    if info.is_ok() != read_ok {
        return Err(format!(
            "format::info {} although the round trip {}",
            if info.is_ok() { "read" } else { "failed" },
            if read_ok { "read" } else { "failed" }
        ));
    }
    let _ = format::field_at(format, bytes, probe);
    if read_ok {
        check_pose(format, bytes)?;
    }
    Ok(read_ok)
}

/// A model that reads evaluates to a pose (rest, and every bone turned and moved, every
/// morph at 1, IK on) whose every rotation is finite; the time it takes is bounded by the
/// rig's repairs (loop counts capped, cycles cut), which the fuzzer's time budget checks.
fn check_pose(format: Format, bytes: &[u8]) -> Result<(), String> {
    use mmd_formats::pose::{Binding, Evaluator, Rig};
    use mmd_formats::vpd::{BonePose, MorphPose, Pose};
    let rig = match format {
        Format::Pmx => {
            Rig::from_pmx(&mmd_formats::pmx::Pmx::from_bytes(bytes).map_err(|e| e.to_string())?)
        }
        Format::Pmd => {
            Rig::from_pmd(&mmd_formats::pmd::Pmd::from_bytes(bytes).map_err(|e| e.to_string())?)
        }
        _ => return Ok(()),
    };
    let pose = Pose {
        model_file: String::new(),
        bones: rig
            .bones()
            .iter()
            .map(|b| BonePose {
                name: b.name.clone(),
                translation: [0.1, -0.2, 0.3],
                rotation: [0.2, 0.3, 0.1, 0.9],
            })
            .collect(),
        morphs: rig
            .morphs()
            .iter()
            .map(|m| MorphPose {
                name: m.name.clone(),
                weight: 1.0,
            })
            .collect(),
    };
    let mut eval = Evaluator::new(&rig);
    for binding in [Binding::rest(), Binding::vpd(&rig, &pose)] {
        eval.evaluate(&binding, 0.0);
        if let Some(i) = (0..rig.bones().len()).find(|&i| !eval.world_rotation(i).is_finite()) {
            return Err(format!("pose: bone {i}'s world rotation is not finite"));
        }
    }
    Ok(())
}

/// Writes a failing input under the temporary directory and returns its path.
fn save_failure(format: Format, seed: u64, iteration: u64, bytes: &[u8]) -> PathBuf {
    let name = format!(
        "mmd-fuzz-{}-seed{seed}-iter{iteration}.{}",
        format.name().to_ascii_lowercase(),
        format.name().to_ascii_lowercase()
    );
    let path = std::env::temp_dir().join(name);
    if let Err(e) = std::fs::write(&path, bytes) {
        eprintln!("cannot write {}: {e}", path.display());
    }
    path
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(msg) => {
            eprintln!("{msg}");
            return ExitCode::from(2);
        }
    };

    let mut pools: [Vec<Vec<u8>>; 4] = Default::default();
    for sample in mmd_formats::samples::all() {
        if let Some(f) = Format::detect(&sample.bytes) {
            pools[slot(f)].push(sample.bytes);
        } else {
            eprintln!(
                "note: sample {} has no known signature, skipped",
                sample.name
            );
        }
    }
    if let Some(dir) = &args.corpus {
        let mut files = Vec::new();
        if let Err(e) = files_under(dir, &mut files) {
            eprintln!("cannot list corpus {}: {e}", dir.display());
            return ExitCode::from(2);
        }
        files.sort();
        let mut added = 0;
        for path in files {
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            if let Some(f) = format_of(&path, &bytes) {
                if pools[slot(f)].len() < POOL_LIMIT {
                    pools[slot(f)].push(bytes);
                    added += 1;
                }
            }
        }
        eprintln!("corpus: {added} files from {}", dir.display());
    }
    let active: Vec<Format> = args
        .formats
        .iter()
        .copied()
        .filter(|&f| {
            let has = !pools[slot(f)].is_empty();
            if !has {
                eprintln!("note: no seeds for {}, skipped", f.name());
            }
            has
        })
        .collect();
    if active.is_empty() {
        eprintln!("no seeds for the requested formats");
        return ExitCode::from(2);
    }
    eprintln!(
        "seed {} for {} s; seeds: {}",
        args.seed,
        args.seconds,
        active
            .iter()
            .map(|&f| format!("{} {}", f.name(), pools[slot(f)].len()))
            .collect::<Vec<_>>()
            .join(", ")
    );

    // Panics inside the checks are caught and reported; keep them off stderr.
    panic::set_hook(Box::new(|_| {}));

    let mut rng = Rng::new(args.seed);
    let mut stats: [Stats; 4] = Default::default();
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let mut iteration: u64 = 0;
    // Run until the deadline, but always run each format at least once.
    while iteration < active.len() as u64 || Instant::now() < deadline {
        let format = active[(iteration % active.len() as u64) as usize];
        let pool = &pools[slot(format)];
        let base = rng.below(pool.len());
        let other = rng.below(pool.len());
        let mut data = pool[base].clone();
        for _ in 0..1 + rng.below(8) {
            mutate_once(&mut rng, &mut data, &pool[other]);
        }
        let probe = rng.below(data.len() + 1) as u64;

        let outcome = panic::catch_unwind(AssertUnwindSafe(|| check(format, &data, probe)));
        let read = matches!(outcome, Ok(Ok(true)));
        let st = &mut stats[slot(format)];
        st.execs += 1;
        let failure = match outcome {
            Ok(Ok(true)) => {
                st.ok += 1;
                None
            }
            Ok(Ok(false)) => {
                st.read_errors += 1;
                None
            }
            Ok(Err(msg)) => Some(msg),
            Err(payload) => {
                let msg = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "(non-string payload)".into());
                Some(format!("panic: {msg}"))
            }
        };
        if let Some(msg) = failure {
            let path = save_failure(format, args.seed, iteration, &data);
            eprintln!(
                "FAILURE in {} at iteration {iteration} (seed {}, probe offset {probe}): {msg}",
                format.name(),
                args.seed
            );
            eprintln!("input ({} bytes) written to {}", data.len(), path.display());
            println!("failure: {}", path.display());
            print_stats(&active, &stats);
            return ExitCode::from(1);
        }
        if read {
            // A mutant that reads becomes a seed, so later mutations go deeper.
            let pool = &mut pools[slot(format)];
            if pool.len() < POOL_LIMIT {
                pool.push(data);
                st.new_seeds += 1;
            } else if rng.below(16) == 0 {
                // Pool full: replace a random seed now and then so it keeps moving.
                let i = rng.below(pool.len());
                pool[i] = data;
                st.new_seeds += 1;
            }
        }
        iteration += 1;
    }
    print_stats(&active, &stats);
    ExitCode::SUCCESS
}

fn print_stats(active: &[Format], stats: &[Stats; 4]) {
    for &f in active {
        let s = &stats[slot(f)];
        println!(
            "{}: {} execs, {} ok, {} read errors, {} new seeds",
            f.name().to_ascii_lowercase(),
            s.execs,
            s.ok,
            s.read_errors,
            s.new_seeds
        );
    }
}
