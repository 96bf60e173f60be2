//! The table of rules: one entry per code, read by the checks (for the severity), by
//! `mmd lint` and by the generated reference (`mmd-spec/reference/lint.md`).

use super::{Rule, Severity, Topic};

use Severity::{Error, Info, Warning};
use Topic::*;

/// Every rule, in code order. Codes are stable: a rule that is retired keeps its code
/// unused rather than giving it to another rule.
pub static RULES: &[Rule] = &[
    Rule {
        code: "E001",
        severity: Error,
        topic: References,
        applies: "PMX, PMD",
        title: "an index that names no record",
        what: "An index (a bone's parent, tail, inherit parent or IK target and links, a \
               vertex weight's bone, a material's textures, a morph offset's morph, bone, \
               material or rigid body, a display-frame element, a rigid body's bone, a \
               joint's bodies, a soft body's material, anchors and pinned vertices) is past \
               the last record of its kind, or negative but not -1.",
        why: "MMD and most loaders index their arrays with the value as it is: past the end \
              they read another record's memory or stop loading the model.",
        evidence: "PMX stores indices as signed integers whose width the header declares, \
                   with -1 as the only \"none\" value (PMX 2.0 specification); PMD uses \
                   unsigned 16-bit indices with 0xFFFF for none.",
        fix: "Renumber the references after deleting or reordering records (the exporter's \
              index map is stale), or write -1 where the field allows none.",
    },
    Rule {
        code: "E002",
        severity: Error,
        topic: References,
        applies: "PMX",
        title: "-1 (none) where a record is required",
        what: "An index that must name a record is -1: an IK target or IK link, a group or \
               flip morph's morph, a bone morph's bone, an impulse morph's rigid body, a \
               display-frame element.",
        why: "These fields have no \"none\" meaning: an IK without a target, a morph offset \
              or a frame entry naming nothing cannot be built, and readers that index with \
              -1 read before their array.",
        evidence: "The PMX 2.0 specification gives -1 a meaning only for a bone's parent, \
                   tail and inherit parent, a material's textures, a material morph (every \
                   material), a rigid body's bone and a joint's bodies (\"関連なしの場合は-1\": \
                   none); the other indices name a record.",
        fix: "Point the field at the record it stands for, or remove the entry (the IK link, \
              the morph offset, the frame element).",
    },
    Rule {
        code: "E003",
        severity: Error,
        topic: Skeleton,
        applies: "PMX, PMD",
        title: "a parent cycle",
        what: "Following the parent links from a bone leads back to it (a bone that is its \
               own parent is a cycle of one).",
        why: "A bone's transform is its parent's times its own: with a cycle there is no \
              root to start from, and loaders that follow parents recursively never end.",
        evidence: "A skeleton is a tree: every chain of parents must end at a bone whose \
                   parent is -1 (PMX) or 0xFFFF (PMD).",
        fix: "Give the first bone of the cycle its real parent (usually the bone the \
              exporter's armature had above it), or -1.",
    },
    Rule {
        code: "E004",
        severity: Error,
        topic: Faces,
        applies: "PMX, PMD",
        title: "a face count that is not a multiple of 3",
        what: "The face list's index count, or a material's face count, is not a multiple \
               of 3.",
        why: "Faces are triangles: three indices each. A count that is not a multiple of 3 \
              shifts every later material's triangles by one or two indices.",
        evidence: "PMX and PMD store the face list as vertex indices, three per triangle, \
                   and each material's count in indices (not triangles); materials take \
                   consecutive runs of the list.",
        fix: "Write whole triangles, and each material's count as 3 times its triangles.",
    },
    Rule {
        code: "E005",
        severity: Error,
        topic: Faces,
        applies: "PMX, PMD",
        title: "a face naming a vertex that does not exist",
        what: "A face index is not less than the number of vertices.",
        why: "The renderer reads the vertex buffer with it: past the end it draws garbage \
              or the model fails to load.",
        evidence: "Face indices are positions in the vertex list (unsigned at 1 and 2 \
                   bytes in PMX, u16 in PMD).",
        fix: "Renumber the faces after deleting vertices, or write the vertices they name.",
    },
    Rule {
        code: "E006",
        severity: Error,
        topic: Faces,
        applies: "PMX, PMD",
        title: "material face counts that take more faces than there are",
        what: "The materials' face counts add up to more than the face list holds, or one \
               of them is negative.",
        why: "Each material draws the next run of its count: the last materials run off the \
              end of the face list.",
        evidence: "A material's face count is the length of its run of the face list; the \
                   runs start where the previous material's ends.",
        fix: "Write each material's count from the faces it owns, so that they add up to \
              the face list's count.",
    },
    Rule {
        code: "E007",
        severity: Error,
        topic: Weights,
        applies: "PMX, PMD",
        title: "a morph offset on a vertex that does not exist",
        what: "A vertex or UV morph offset names a vertex past the last one (in a PMD, a \
               base-morph entry past the last vertex, or another morph's entry past the \
               base morph's list).",
        why: "Applying the morph writes to a vertex that is not there: another vertex moves, \
              or the loader fails.",
        evidence: "PMX vertex and UV morph offsets hold a vertex index; a PMD morph other \
                   than the base holds positions in the base morph's vertex list.",
        fix: "Rebuild the morph after the mesh changed, or drop the offsets whose vertices \
              were deleted.",
    },
    Rule {
        code: "W001",
        severity: Warning,
        topic: Skeleton,
        applies: "PMX",
        title: "a bone deformed before its parent",
        what: "A bone's deform layer is lower than its parent's, or the bone deforms before \
               physics while its parent deforms after it (flag 0x1000).",
        why: "MMD deforms bones layer by layer (lowest first; bones after physics last): the \
              child is computed while its parent still has its previous transform, so it \
              lags behind or, in some players, is computed against no parent at all.",
        evidence: "MMD orders deformation by layer, then by index, with the bones that \
                   deform after physics in a second pass; babylon-mmd 1.3.0 computes such \
                   a child against an identity parent.",
        fix: "Give the bone a layer at least its parent's (and the after-physics flag if the \
              parent has it).",
    },
    Rule {
        code: "W002",
        severity: Warning,
        topic: Skeleton,
        applies: "PMX",
        title: "an inherit (append) source that deforms after its target",
        what: "A bone inherits rotation or translation from a bone that comes later in \
               deform order (a higher layer, or the same layer and a higher index).",
        why: "MMD solves inherits in deform order: the target reads its source before the \
              source is updated this frame, so it follows one frame late or not at all. \
              Players that sort inherits by dependency (three.js) show it differently.",
        evidence: "MMD deforms by layer, then by index; three.js' MMDAnimationHelper solves \
                   every IK and then every inherit in dependency order, ignoring layers, so \
                   the two disagree exactly here.",
        fix: "Put the target in a higher layer than its source, or after it in the bone \
              list within the same layer.",
    },
    Rule {
        code: "W003",
        severity: Warning,
        topic: Skeleton,
        applies: "PMX",
        title: "an IK link that is an inherit (append) target",
        what: "A bone in an IK chain's links also inherits rotation or translation from \
               another bone.",
        why: "The IK solver and the inherit both set the bone's rotation: which one wins \
              depends on the order a player solves them in, so the chain bends differently \
              in MMD and in players with a fixed IK-then-inherit order.",
        evidence: "MMD solves IK and inherits bone by bone in deform order; three.js solves \
                   all IK first and all inherits after. Real models avoid the combination \
                   (three checked models have none).",
        fix: "Link the IK to the bone the inherit copies from, or move the inherit to a \
              helper bone outside the chain.",
    },
    Rule {
        code: "W004",
        severity: Warning,
        topic: Skeleton,
        applies: "PMX, PMD",
        title: "an IK with a loop count of 0",
        what: "An IK bone's loop count (iterations) is 0 or negative.",
        why: "The solver runs its loop that many times: with none, the IK does nothing and \
              the chain stays where forward kinematics left it.",
        evidence: "The loop count is the number of CCD iterations (PMX int, PMD u16).",
        fix: "Write a positive loop count (MMD's leg IKs use 40, toe IKs 3).",
    },
    Rule {
        code: "W005",
        severity: Warning,
        topic: Skeleton,
        applies: "PMX, PMD",
        title: "an IK loop count beyond what MMD runs",
        what: "An IK bone's loop count is above 255.",
        why: "MMD runs at most 255 iterations, so the chain settles differently from players \
              that run the full count, and the extra iterations only cost time elsewhere.",
        evidence: "The PMX 2.0 specification notes that 255 loops appear to be the maximum \
                   in PMD and MMD.",
        fix: "Write a loop count of at most 255.",
    },
    Rule {
        code: "W006",
        severity: Warning,
        topic: Skeleton,
        applies: "PMX",
        title: "an IK angle limit with its minimum above its maximum",
        what: "An IK link's lower angle limit is above its upper limit on some axis.",
        why: "No angle satisfies the limit: solvers clamp to one bound or the other, so the \
              joint snaps or locks depending on the player.",
        evidence: "A limited IK link stores a lower and an upper Euler angle (radians) per \
                   axis; the rotation is clamped between them.",
        fix: "Swap the two bounds on that axis (exporters converting between handedness \
              often negate them without swapping).",
    },
    Rule {
        code: "W007",
        severity: Warning,
        topic: Faces,
        applies: "PMX, PMD",
        title: "faces that no material draws",
        what: "The materials' face counts add up to fewer indices than the face list holds.",
        why: "The faces after the last material's run are never drawn: part of the mesh is \
              invisible in MMD.",
        evidence: "Materials take consecutive runs of the face list from its start.",
        fix: "Add the remaining faces to a material's count, or remove them.",
    },
    Rule {
        code: "W008",
        severity: Warning,
        topic: Weights,
        applies: "PMX",
        title: "BDEF4 or QDEF weights that do not sum to 1",
        what: "A vertex's four weights add up to something other than 1 (by more than \
               0.001).",
        why: "MMD uses the weights as they are: a sum below 1 shrinks the vertex toward the \
              origin as the bones move, above 1 it grows away.",
        evidence: "A skinned position is the weighted sum of the bones' transforms of it; \
                   only weights summing to 1 keep a vertex in place at rest.",
        fix: "Normalise the weights before writing (divide each by their sum).",
    },
    Rule {
        code: "W009",
        severity: Warning,
        topic: Weights,
        applies: "PMX, PMD",
        title: "a negative weight",
        what: "A vertex weight is negative: a BDEF4/QDEF weight below 0, or a BDEF2/SDEF \
               weight above 1 (its second bone gets 1 - w) or below 0; in a PMD, a weight \
               byte above 100.",
        why: "A negative weight pushes the vertex away from its bone: the mesh tears or \
              balloons when the bones move.",
        evidence: "BDEF2 and SDEF store one weight w for the first bone and give the second \
                   1 - w; PMD stores the first bone's weight as a percentage (0-100).",
        fix: "Clamp the weights to 0..1 and normalise them.",
    },
    Rule {
        code: "W010",
        severity: Warning,
        topic: Weights,
        applies: "PMX",
        title: "a weight on the \"none\" bone",
        what: "A vertex gives a non-zero weight to bone -1 (in BDEF1, its only bone is -1).",
        why: "There is no bone to follow: players drop that share of the weight (the vertex \
              shrinks toward the origin) or read the bone before the first.",
        evidence: "Unused BDEF2/BDEF4 slots are written as -1 with weight 0; a non-zero \
                   weight there has no bone to apply to.",
        fix: "Give the weight to a real bone (the root), or set it to 0 and normalise the \
              rest.",
    },
    Rule {
        code: "W011",
        severity: Warning,
        topic: Weights,
        applies: "PMX",
        title: "SDEF parameters that cannot be used",
        what: "An SDEF vertex has a C, R0 or R1 value that is not finite, or names the same \
               bone twice.",
        why: "SDEF blends around the centre C between R0 and R1 of two different bones: \
              with a NaN or infinite value the vertex disappears, with one bone there is \
              nothing to blend.",
        evidence: "SDEF is BDEF2 plus three float3 parameters (C, R0, R1) in model space.",
        fix: "Write finite parameters, or write the vertex as BDEF1/BDEF2 when it has only \
              one bone.",
    },
    Rule {
        code: "W012",
        severity: Warning,
        topic: Names,
        applies: "PMX, PMD",
        title: "a bone name longer than 15 bytes in Shift_JIS",
        what: "A bone's name takes more than 15 bytes in Shift_JIS.",
        why: "A VMD bone key names its bone in a 15-byte Shift_JIS field: the name does not \
              fit, so no motion can move the bone (MMD cuts the name when it saves, and the \
              cut name matches nothing when the motion is loaded).",
        evidence: "The VMD bone keyframe is 111 bytes, the first 15 the bone name in \
                   Shift_JIS (Japanese characters take 2 bytes: at most 7 of them).",
        fix: "Shorten the name to 15 bytes of Shift_JIS (7 Japanese characters, or fewer \
              with ASCII mixed in).",
    },
    Rule {
        code: "W013",
        severity: Warning,
        topic: Names,
        applies: "PMX, PMD",
        title: "a morph name longer than 15 bytes in Shift_JIS",
        what: "A morph's name takes more than 15 bytes in Shift_JIS.",
        why: "A VMD morph key names its morph in a 15-byte Shift_JIS field: no motion can \
              move the morph.",
        evidence: "The VMD morph keyframe is 23 bytes, the first 15 the morph name in \
                   Shift_JIS.",
        fix: "Shorten the name to 15 bytes of Shift_JIS.",
    },
    Rule {
        code: "W014",
        severity: Warning,
        topic: Names,
        applies: "PMX",
        title: "a bone or morph name with characters Shift_JIS lacks",
        what: "A bone's or morph's name holds a character that has no Shift_JIS form (most \
               emoji, many Chinese and Korean characters, accented Latin letters).",
        why: "VMD and VPD name their tracks in Shift_JIS: a name that does not encode can \
              never be written, so no motion or pose can move that bone or morph.",
        evidence: "VMD track names and VPD files are Shift_JIS; PMX names are UTF-16 or \
                   UTF-8 and can hold any character.",
        fix: "Rename with characters Shift_JIS has (kana, JIS kanji, ASCII).",
    },
    Rule {
        code: "W015",
        severity: Warning,
        topic: Names,
        applies: "PMX, PMD",
        title: "two bones with the same name",
        what: "Two bones have the same name.",
        why: "A motion binds its tracks by name: only one of the bones moves (players differ \
              on which: babylon-mmd takes the last).",
        evidence: "VMD and VPD keys carry a bone name, not an index.",
        fix: "Give each bone its own name.",
    },
    Rule {
        code: "W016",
        severity: Warning,
        topic: Names,
        applies: "PMX, PMD",
        title: "two morphs with the same name",
        what: "Two morphs have the same name.",
        why: "A motion binds its morph tracks by name: only one of the morphs moves.",
        evidence: "VMD morph keys carry a morph name, not an index.",
        fix: "Give each morph its own name.",
    },
    Rule {
        code: "W017",
        severity: Warning,
        topic: DisplayFrames,
        applies: "PMX",
        title: "the two special display frames missing or renamed",
        what: "Display frame 0 is not the special frame \"Root\", or frame 1 is not the \
               special frame \"表情\" (special flag 1 and that name).",
        why: "MMD's frame panel puts the root bone and the morphs in these two frames, told \
              by their flag and name: without them the model's root or its morphs cannot be \
              selected in the timeline.",
        evidence: "The PMX 2.0 specification: a new model has frame 0 \"Root\" and frame 1 \
                   \"表情\", both special (flag 1); a frame is special by its flag and its \
                   name.",
        fix: "Write frame 0 as \"Root\" (special, holding the root bone) and frame 1 as \
              \"表情\" (special, holding the morphs) before the other frames.",
    },
    Rule {
        code: "W018",
        severity: Warning,
        topic: Physics,
        applies: "PMX, PMD",
        title: "a joint joining a rigid body to itself",
        what: "A joint's two rigid bodies are the same body.",
        why: "A constraint between a body and itself does nothing (or makes the physics \
              engine unstable): whatever the joint was meant to hold hangs free.",
        evidence: "A joint constrains body A relative to body B.",
        fix: "Point the joint's second body at the body it should hold.",
    },
    Rule {
        code: "W019",
        severity: Warning,
        topic: Physics,
        applies: "VMD, VPD with --model",
        title: "a bone driven by physics keyed by a motion or pose",
        what: "A motion or pose keys a bone that a rigid body in a physics mode (1 or 2) \
               drives, with physics on for that key.",
        why: "Physics overwrites the bone every frame: the keys do nothing in MMD, and in \
              players without physics they pin hair and skirts in the pose they were \
              captured in.",
        evidence: "A pose captured from a running scene holds every physics bone; filtering \
                   them out took one standing pose from 63 bones to 10 (the rest were legs \
                   bent by IK, which belong in it).",
        fix: "Leave physics-driven bones out of exported motions and poses, or mark the \
              keys physics-off where the motion really controls the bone.",
    },
    Rule {
        code: "W020",
        severity: Warning,
        topic: Files,
        applies: "PMX, PMD (on disk)",
        title: "a texture file that does not exist beside the model",
        what: "A texture path, taken relative to the model's folder (Windows separators, \
               letter case ignored as Windows does), names no file.",
        why: "MMD loads textures relative to the model file: a missing one renders the \
              material white (or without its sphere or toon).",
        evidence: "PMX texture paths and PMD texture names are relative to the model file \
                   (Texture\\body.png).",
        fix: "Ship the texture beside the model at that path, or correct the path.",
    },
    Rule {
        code: "W021",
        severity: Warning,
        topic: Files,
        applies: "PMX, PMD",
        title: "an absolute texture path",
        what: "A texture path is absolute: it starts with a drive letter (C:), a backslash \
               or a slash.",
        why: "The path names a file on the exporter's machine: on any other machine the \
              texture is missing.",
        evidence: "Texture paths are relative to the model file.",
        fix: "Write the path relative to the model's folder and ship the file with it.",
    },
    Rule {
        code: "W022",
        severity: Warning,
        topic: Motion,
        applies: "VMD, VPD with --model",
        title: "a bone track that binds to no bone",
        what: "A motion's or pose's bone name is not the Shift_JIS name of any bone of the \
               model.",
        why: "Tracks bind by exact name: this one moves nothing (a name cut at 15 bytes, a \
              renamed bone, a motion made for another model).",
        evidence: "VMD and VPD keys carry the bone's Shift_JIS name; players match it \
                   byte for byte.",
        fix: "Rename the track (or the bone) so that they match, or drop the track.",
    },
    Rule {
        code: "W023",
        severity: Warning,
        topic: Motion,
        applies: "VMD, VPD with --model",
        title: "a morph track that binds to no morph",
        what: "A motion's or pose's morph name is not the Shift_JIS name of any morph of the \
               model.",
        why: "Tracks bind by exact name: this one changes nothing.",
        evidence: "VMD morph keys carry the morph's Shift_JIS name.",
        fix: "Rename the track (or the morph) so that they match, or drop the track.",
    },
    Rule {
        code: "W024",
        severity: Warning,
        topic: Motion,
        applies: "VMD with --model",
        title: "an IK switch naming no IK bone",
        what: "An entry of a motion's IK block (the keys that turn IK on and off) names a \
               bone the model does not have, or one that is not an IK bone.",
        why: "The switch applies to nothing: the IK it was meant to turn off keeps pulling \
              (legs drawn back to the IK target).",
        evidence: "Each IK-block key lists IK bone names (20-byte Shift_JIS) with an on/off \
                   byte; they bind by name to bones with the IK flag.",
        fix: "Name the model's IK bones (左足ＩＫ, not 左足IK) or drop the entry.",
    },
    Rule {
        code: "W025",
        severity: Warning,
        topic: Motion,
        applies: "VMD, VPD",
        title: "two keys for the same track and frame",
        what: "Two keys of one block have the same track (bone or morph name) and frame \
               number (camera, light, self-shadow and IK keys: the same frame) and different \
               values; in a pose, two entries for one bone or morph with different values. \
               A key repeated with the same value is left alone: it plays the same whichever \
               copy a player takes.",
        why: "Only one can apply, and players differ on which: the motion plays differently \
              in each. Merging two motions without offsetting one, or changing speed with \
              rounding, leaves such pairs.",
        evidence: "A track is one value per frame; MMD keeps one key per (track, frame).",
        fix: "Keep one key per (track, frame): offset merged motions, drop the colliding \
              keys after a speed change.",
    },
    Rule {
        code: "W026",
        severity: Warning,
        topic: Motion,
        applies: "VMD, VPD",
        title: "a rotation quaternion far from unit length",
        what: "A bone key's rotation quaternion has a length that differs from 1 by more \
               than 0.01, or is not finite.",
        why: "Only unit quaternions are rotations: players that normalise and players that \
              do not show different poses, and a zero quaternion has no rotation at all.",
        evidence: "VMD and VPD store the rotation as a quaternion (x, y, z, w); MMD writes \
                   it normalised.",
        fix: "Normalise the quaternion before writing (a zero one: write (0, 0, 0, 1)).",
    },
    Rule {
        code: "W027",
        severity: Warning,
        topic: Motion,
        applies: "VMD",
        title: "an interpolation control point above 127",
        what: "A bone or camera key's interpolation curve has a control point coordinate \
               above 127.",
        why: "Control points are in 0..127 (127 is 1.0): above it the curve leaves the unit \
              square, and the motion overshoots or runs backwards between keys, differently \
              in each player.",
        evidence: "Each curve is a cubic Bézier with control points (x1, y1), (x2, y2) in \
                   0..127; MMD's default linear curve is (20, 20), (107, 107).",
        fix: "Write control points as round(v * 127) for v in 0..1.",
    },
    Rule {
        code: "W028",
        severity: Warning,
        topic: Motion,
        applies: "VMD",
        title: "a camera key with a field of view of 0",
        what: "A camera key's field of view is 0 degrees.",
        why: "A projection with no angle shows nothing (or divides by zero): the camera cut \
              renders a blank frame.",
        evidence: "The camera key's field of view is a u32 in degrees; MMD's camera panel \
                   offers 1 and up.",
        fix: "Write the field of view in degrees (MMD's default is 30).",
    },
    Rule {
        code: "I001",
        severity: Info,
        topic: Skeleton,
        applies: "PMX, PMD",
        title: "a parent after its child",
        what: "A bone's parent comes after it in the bone list.",
        why: "Legal, and MMD plays it, but a tool that computes bones in one pass in file \
              order reads the parent before it is computed: walk the bones parents first.",
        evidence: "A real model loaded by MMD has a bone whose parent index is higher than \
                   its own.",
        fix: "Nothing is required; to help simple tools, move the parent before its child.",
    },
    Rule {
        code: "I002",
        severity: Info,
        topic: DisplayFrames,
        applies: "PMX, PMD",
        title: "a bone that no display frame lists",
        what: "A bone that is visible and can be operated (PMX flags 0x0008 and 0x0010; PMD \
               types rotate, rotate and move, IK, twist) is in no display frame.",
        why: "MMD's timeline shows bones by frame: this bone has no row, so it can be keyed \
              only by clicking it in the view, and its keys cannot be seen or edited.",
        evidence: "Display frames list the bones and morphs the editor's panels show; a bone \
                   listed in none is shown in none.",
        fix: "Add the bone to a display frame, or clear its visible or operable flag if \
              users are not meant to key it.",
    },
];
