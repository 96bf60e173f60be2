//! One test per trap of seed 004 (the VMD byte-layout article) that concerns reading,
//! writing or decoding, each named after its trap and quoting the seed's line; then
//! `summary()` on fixtures whose values were checked by hand.
//!
//! Most tests build their input byte by byte here (not with the library's writer), so
//! they check the layout itself, and run without the fixture corpus.

use mmd_formats::layout::Size;
use mmd_formats::vmd::*;
use mmd_formats::{Describe, ErrorKind, ShiftJis};
use mmd_tests::corpus_files;

// ---- hand-built bytes ----------------------------------------------------------------

/// Shift_JIS bytes of `s` (through the encoder behind `ShiftJis::new`).
fn sjis(s: &str) -> Vec<u8> {
    ShiftJis::<64>::new(s).unwrap().name_bytes().to_vec()
}

/// `text`, then zeros up to `n` bytes.
fn field(text: &[u8], n: usize) -> Vec<u8> {
    let mut v = text.to_vec();
    v.resize(n, 0);
    v
}

fn header_v2(model: &[u8]) -> Vec<u8> {
    let mut v = field(b"Vocaloid Motion Data 0002", 30);
    v.extend(field(model, 20));
    v
}

fn u32le(v: u32) -> [u8; 4] {
    v.to_le_bytes()
}

fn f32le(v: f32) -> [u8; 4] {
    v.to_le_bytes()
}

/// A 111-byte bone record: name, frame, position 0, identity rotation, `interp`.
fn bone_record(name: &[u8], frame: u32, interp: &[u8; 64]) -> Vec<u8> {
    let mut v = field(name, 15);
    v.extend(u32le(frame));
    for x in [0.0f32, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0] {
        v.extend(f32le(x));
    }
    v.extend(interp);
    assert_eq!(v.len(), 111);
    v
}

fn morph_record(name: &[u8], frame: u32, weight: f32) -> Vec<u8> {
    let mut v = field(name, 15);
    v.extend(u32le(frame));
    v.extend(f32le(weight));
    v
}

fn camera_record(frame: u32) -> Vec<u8> {
    let mut v = u32le(frame).to_vec();
    v.extend(f32le(-45.0));
    for x in [0.0f32, 10.0, 0.0, 0.0, 0.0, 0.0] {
        v.extend(f32le(x));
    }
    v.extend([20, 107, 20, 107].repeat(6));
    v.extend(u32le(30));
    v.push(0);
    assert_eq!(v.len(), 61);
    v
}

/// Header, then each block as (count, record bytes); `None` stops the file there.
fn file(blocks: &[Option<(u32, Vec<u8>)>]) -> Vec<u8> {
    let mut v = header_v2(b"test");
    for (count, records) in blocks.iter().map_while(|b| b.as_ref()) {
        v.extend(u32le(*count));
        v.extend(records);
    }
    v
}

fn empty() -> Option<(u32, Vec<u8>)> {
    Some((0, vec![]))
}

/// MMD's default block for a new key, exactly as seed 004 lists it.
const SEED_DEFAULT: [u8; 64] = [
    20, 20, 0, 0, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107, //
    20, 20, 20, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107, 0, //
    20, 20, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107, 0, 0, //
    20, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107, 0, 0, 0,
];

fn round_trip(bytes: &[u8]) -> Vmd {
    let v = Vmd::from_bytes(bytes).unwrap_or_else(|e| panic!("read: {e}"));
    assert_eq!(v.to_bytes().unwrap(), bytes, "write(read(bytes)) == bytes");
    v
}

/// The fixture `vmd/<name>` and what it reads to. `None` without the corpus; a failure when
/// the corpus is there but the file is not, or does not read.
fn fixture(name: &str) -> Option<(Vec<u8>, Vmd)> {
    let bytes = mmd_tests::fixture(&format!("vmd/{name}"))?;
    let vmd = Vmd::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    Some((bytes, vmd))
}

// ---- trap 1: encoding and units --------------------------------------------------------

/// Seed 004: "数値はすべてリトルエンディアン。整数はuint32、実数はfloat32" and
/// "文字列はShift_JISの固定長。…UTF-8ではありません。"
#[test]
fn little_endian_u32_f32_and_shift_jis_names() {
    let bytes = file(&[
        empty(),
        Some((1, morph_record(&sjis("まばたき"), 0x0102_0304, 0.5))),
    ]);
    let v = round_trip(&bytes);
    let m = v.morph_keys.as_ref().unwrap()[0];
    assert_eq!(m.frame, 0x0102_0304);
    assert_eq!(m.weight, 0.5);
    assert_eq!(m.name.decode(), "まばたき");
    // The same name as UTF-8 bytes is not what the field means.
    let utf8 = ShiftJis::<15>(field("まばたき".as_bytes(), 15).try_into().unwrap());
    assert_ne!(utf8.decode(), "まばたき");
}

/// Seed 004: "長さフィールドは無く、余りは0埋めです。" Real files put 0xFD after the NUL
/// (mei_anger, mei_wait, smile, wavefile_v2, …): the junk is kept.
#[test]
fn fd_padding_after_nul_kept() {
    let mut name = sjis("センター");
    name.push(0);
    name.resize(15, 0xFD);
    let bytes = file(&[Some((1, bone_record(&name, 0, &SEED_DEFAULT)))]);
    let v = round_trip(&bytes);
    let key = v.bone_keys[0];
    assert_eq!(key.name.decode(), "センター");
    assert_eq!(key.name.junk(), &[0xFD; 6]);
    if let Some((_, mei)) = fixture("mei_anger.vmd") {
        // Research notes §8: NUL then 0xFD in 140 of 142 bone names of mei_anger.
        let fd = mei
            .bone_keys
            .iter()
            .filter(|k| !k.name.junk().is_empty() && k.name.junk().iter().all(|&b| b == 0xFD))
            .count();
        assert_eq!(fd, 140);
    }
}

// ---- trap 2: time ----------------------------------------------------------------------

/// Seed 004: "時間の単位はフレーム番号で、30fps固定。番号 ÷ 30 が秒です。"
#[test]
fn time_is_frames_at_30_fps() {
    let bytes = file(&[Some((
        2,
        [
            bone_record(b"a", 90, &SEED_DEFAULT),
            bone_record(b"a", 15, &SEED_DEFAULT),
        ]
        .concat(),
    ))]);
    let s = round_trip(&bytes).summary();
    assert_eq!(s.frame_range, Some((15, 90)));
    assert_eq!(s.duration_secs, 3.0);
}

// ---- trap 4: block layout --------------------------------------------------------------

/// Seed 004: "各ブロックは「件数(uint32) + 件数ぶんのレコード」で、レコード長は種類ごとに
/// 固定です(IK/表示だけ可変)" — bone 111, morph 23, camera 61, light 28, self-shadow 9,
/// IK/show 9 + 21 × IK count.
#[test]
fn record_sizes_match_the_spec() {
    assert_eq!(BoneKey::SIZE, Size::Fixed(111));
    assert_eq!(MorphKey::SIZE, Size::Fixed(23));
    assert_eq!(CameraKey::SIZE, Size::Fixed(61));
    assert_eq!(LightKey::SIZE, Size::Fixed(28));
    assert_eq!(SelfShadowKey::SIZE, Size::Fixed(9));
    assert_eq!(IkState::SIZE, Size::Fixed(21));
    assert_eq!(ShowIkKey::SIZE, Size::Variable);
    // The count checks use these minimums: tight for every record kind.
    assert_eq!(
        [
            BoneKey::MIN_SIZE,
            MorphKey::MIN_SIZE,
            CameraKey::MIN_SIZE,
            LightKey::MIN_SIZE,
            SelfShadowKey::MIN_SIZE,
            ShowIkKey::MIN_SIZE
        ],
        [111, 23, 61, 28, 9, 9]
    );
    // The header's minimum is the v1 one: 30 + 10 (the model name's width depends on the
    // version), so the smallest file is 44 bytes (header and the bone count).
    assert_eq!(Header::MIN_SIZE, 40);
    assert_eq!(Vmd::MIN_SIZE, 44);
}

// ---- trap 5: blocks may be missing -----------------------------------------------------

/// Seed 004: "後ろのブロックは存在しないことがあります。…件数フィールドすら書かれていない
/// ファイルがあるので、「残りが4バイト未満なら打ち切る」" — absent is not "count 0".
#[test]
fn absent_block_differs_from_empty_block() {
    let absent = file(&[empty(), empty(), empty(), empty(), empty()]);
    let zero = file(&[empty(), empty(), empty(), empty(), empty(), empty()]);
    assert_eq!(zero.len(), absent.len() + 4);
    let a = round_trip(&absent);
    let z = round_trip(&zero);
    assert_eq!(a.show_ik_keys, None);
    assert_eq!(z.show_ik_keys, Some(vec![]));
    assert_ne!(a, z);
    assert_eq!(a.summary().show_ik_keys, None);
    assert_eq!(z.summary().show_ik_keys, Some(0));
    // Writing a block after an absent one is refused: the file could not say it.
    let mut bad = a.clone();
    bad.self_shadow_keys = None;
    bad.show_ik_keys = Some(vec![]);
    let err = bad.to_bytes().unwrap_err();
    assert_eq!(err.path_string(), "show_ik_keys", "{err}");
}

/// Seed 004 (same line): the file may stop after any block, bone block included.
#[test]
fn file_may_end_after_any_block() {
    let blocks = [
        Some((1, bone_record(b"a", 0, &SEED_DEFAULT))),
        Some((1, morph_record(b"m", 0, 1.0))),
        Some((1, camera_record(0))),
        empty(),
        empty(),
        empty(),
    ];
    for keep in 1..=6 {
        let v = round_trip(&file(&blocks[..keep]));
        let present = [
            v.morph_keys.is_some(),
            v.camera_keys.is_some(),
            v.light_keys.is_some(),
            v.self_shadow_keys.is_some(),
            v.show_ik_keys.is_some(),
        ];
        let want: Vec<bool> = (2..=6).map(|b| b <= keep).collect();
        assert_eq!(present.to_vec(), want, "file ending after block {keep}");
    }
}

/// Seed 004 (same line): 1 to 3 bytes where a count would be are not a count, and not
/// "absent": an error at that offset.
#[test]
fn end_inside_count_is_error_not_absent() {
    let base = file(&[Some((1, bone_record(b"a", 0, &SEED_DEFAULT)))]);
    let names = [
        "morph_keys",
        "camera_keys",
        "light_keys",
        "self_shadow_keys",
        "show_ik_keys",
    ];
    for (i, name) in names.iter().enumerate() {
        let mut at_block = base.clone();
        at_block.extend(vec![0; 4 * i]); // the earlier optional blocks, count 0
        for stray in 1..=3 {
            let mut bytes = at_block.clone();
            bytes.extend(vec![0; stray]);
            let err = Vmd::from_bytes(&bytes).unwrap_err();
            assert_eq!(
                err.offset(),
                at_block.len() as u64,
                "{name}, {stray}: {err}"
            );
            assert_eq!(err.path_string(), *name);
            assert!(err.is_truncated(), "{err}");
        }
    }
}

/// Seed 004 (same line), the strict side: a file that ends inside a record is an error.
#[test]
fn end_inside_record_is_error() {
    let bytes = file(&[Some((1, bone_record(b"a", 0, &SEED_DEFAULT)))]);
    let cut = &bytes[..bytes.len() - 1];
    let err = Vmd::from_bytes(cut).unwrap_err();
    assert_eq!(err.offset(), 50, "{err}");
    assert!(matches!(
        err.kind(),
        ErrorKind::CountTooLarge { count: 1, .. }
    ));
}

// ---- trap 6: old header ----------------------------------------------------------------

/// Seed 004: "ヘッダの文字列は古い版だと Vocaloid Motion Data file(バージョン0001)です。"
/// The old version's model name is 10 bytes, so the bone count is at 40, not 50.
#[test]
fn v1_header_has_10_byte_model_name() {
    let mut bytes = field(b"Vocaloid Motion Data file", 30);
    bytes.extend(field(b"miku", 10));
    bytes.extend(u32le(1));
    bytes.extend(bone_record(&sjis("頭"), 7, &SEED_DEFAULT));
    let v = round_trip(&bytes);
    assert_eq!(v.header.version(), Some(VmdVersion::V1));
    assert!(matches!(v.header.model_name, ModelName::V1(_)));
    assert_eq!(v.header.model_name.decode(), "miku");
    assert_eq!(v.bone_keys.len(), 1);
    assert_eq!(v.bone_keys[0].frame, 7);
    assert_eq!(v.morph_keys, None);
    // A 10-byte name in a v2 header is refused on write.
    let mut mixed = v.clone();
    mixed.header.signature = signature_bytes(VmdVersion::V2);
    assert!(mixed.to_bytes().is_err());
    assert!(
        Header::new_v1("12345678901").is_err(),
        "11 bytes do not fit v1's 10"
    );
}

/// Seed 004: "判定は先頭一致(Vocaloid Motion Data で始まるか)で見るのが安全です。" The
/// version is judged by the prefix: `Vocaloid Motion Data file` is version 1 (10-byte
/// model name), any other signature starting with `Vocaloid Motion Data` version 2 (20
/// bytes). The 30 bytes are kept whole, so every form writes back byte for byte.
#[test]
fn signature_detected_by_prefix() {
    // Literal bytes: signature (30), model name, a bone count of 0.
    let with = |signature: &[u8; 30], name_len: usize| -> Vec<u8> {
        let mut b = signature.to_vec();
        b.extend(field(b"m", name_len));
        b.extend(u32le(0));
        b
    };
    let standard_v2 = *b"Vocaloid Motion Data 0002\0\0\0\0\0";
    let standard_v1 = *b"Vocaloid Motion Data file\0\0\0\0\0";
    let junk_after_nul = *b"Vocaloid Motion Data 0002\0JKLM"; // mmdagent_wait_b's filler
    let nul_padded = *b"Vocaloid Motion Data\0\0\0\0\0\0\0\0\0\0"; // a public loader's test file
    let other_junk = *b"Vocaloid Motion Data_v3.1\xff\xfe\0\0\x01";
    for (what, sig, name_len, version, standard) in [
        ("standard v2", standard_v2, 20, VmdVersion::V2, true),
        ("standard v1", standard_v1, 10, VmdVersion::V1, true),
        (
            "junk after the NUL",
            junk_after_nul,
            20,
            VmdVersion::V2,
            true,
        ),
        (
            "ten NULs after the prefix",
            nul_padded,
            20,
            VmdVersion::V2,
            false,
        ),
        (
            "other bytes after the prefix",
            other_junk,
            20,
            VmdVersion::V2,
            false,
        ),
    ] {
        let bytes = with(&sig, name_len);
        let v = round_trip(&bytes); // reads, and writes back byte for byte
        assert_eq!(v.header.signature, sig, "{what}");
        assert_eq!(v.header.version(), Some(version), "{what}");
        assert_eq!(v.header.model_name.as_bytes().len(), name_len, "{what}");
        assert_eq!(v.header.has_standard_signature(), standard, "{what}");
        assert_eq!(v.context().unwrap().version, version.number(), "{what}");
    }
    // A NUL-padded signature with a 10-byte name would be a v1 layout; read as v2 its
    // 20-byte name swallows the count, and the file ends inside the bone count.
    let short = with(&nul_padded, 10);
    assert!(Vmd::from_bytes(&short).unwrap_err().is_truncated());

    // Not starting with the prefix: an error at offset 0 (the signature), naming the rule.
    let mut not_vmd = *b"Vocaloid Motion Dat\0\0\0\0\0\0\0\0\0\0\0";
    let err = Vmd::from_bytes(&with(&not_vmd, 20)).unwrap_err();
    assert_eq!(err.offset(), 0, "{err}");
    assert_eq!(err.path_string(), "header.signature");
    assert!(!err.is_truncated());
    assert_eq!(
        err.to_string(),
        "header.signature: VMD version 0 at 0x0 (expected a signature starting with \
         \"Vocaloid Motion Data\" (version 1 when \"Vocaloid Motion Data file\", else 2))"
    );
    not_vmd[..4].copy_from_slice(b"PMX ");
    assert_eq!(
        Vmd::from_bytes(&with(&not_vmd, 20)).unwrap_err().offset(),
        0
    );
    // A file that ends inside the 30 signature bytes is cut short.
    assert!(Vmd::from_bytes(b"Vocaloid").unwrap_err().is_truncated());
}

// ---- trap 7: names must fit ------------------------------------------------------------

/// Seed 004: "ボーン名は15バイトに収まらないと書けません。…日本語だけなら7文字までです。
/// …書き出す側は、エンコードして15バイト以内に戻せるかを必ず確かめてください。"
#[test]
fn name_too_long_for_field_is_err() {
    assert!(ShiftJis::<15>::new("左親指０").is_ok());
    assert!(
        ShiftJis::<15>::new("左人指３先ＩＫ").is_ok(),
        "7 characters, 14 bytes"
    );
    assert!(
        ShiftJis::<15>::new("左人指３先ＩＫ０").is_err(),
        "8 characters, 16 bytes"
    );
    assert!(ShiftJis::<15>::new("abcdefghijklmno").is_ok());
    assert!(ShiftJis::<15>::new("abcdefghijklmnop").is_err());
    // IK names are 20 bytes: a 17-byte name fits there but not in a bone key.
    assert!(ShiftJis::<20>::new("前クローク2_1xcIK").is_ok());
    assert!(ShiftJis::<15>::new("前クローク2_1xcIK").is_err());
    // No Shift_JIS form: an error too, never a '?'.
    assert!(ShiftJis::<15>::new("😀").is_err());
    assert!(
        Vmd::new_v2("あいうえおかきくけこさ").is_err(),
        "22 bytes > 20"
    );
}

/// Seed 004 (same trap): a 15-byte name fills the field with no NUL; it reads whole.
/// Fixtures: gene_01_happy has 12 such bone names (`前クローク2_1xc`).
#[test]
fn bone_name_15_bytes_no_nul() {
    let name = sjis("前クローク2_1xc");
    assert_eq!(name.len(), 15);
    let bytes = file(&[Some((1, bone_record(&name, 0, &SEED_DEFAULT)))]);
    let key = round_trip(&bytes).bone_keys[0];
    assert_eq!(key.name.decode(), "前クローク2_1xc");
    assert!(key.name.junk().is_empty());
    assert_eq!(key.name.name_bytes().len(), 15);
    if let Some((_, gene)) = fixture("gene_01_happy.vmd") {
        let full = gene
            .bone_keys
            .iter()
            .filter(|k| !k.name.0.contains(&0))
            .count();
        assert_eq!(full, 12);
    }
}

// ---- trap 9: interpolation layout ------------------------------------------------------

/// Seed 004: "1行目の [2]・3は実物では全部0で、本当の値は2行目の写しの [17]・[18] に
/// あります。先頭16バイトだけ読むと、回転の緩急が変わります" — and in real files those two
/// bytes also hold 99/15 or stale copies: whatever they hold, the curves do not change.
#[test]
fn interpolation_row0_bytes_2_3_are_not_curve_values() {
    let curves = Interpolation {
        x: Curve::new(10, 20, 30, 40),
        y: Curve::new(11, 21, 31, 41),
        z: Curve::new(12, 22, 32, 42),
        rotation: Curve::new(13, 23, 33, 43),
    };
    let block = curves.to_bytes();
    assert_eq!(
        &block[..4],
        &[10, 11, 0, 0],
        "row 0 bytes 2, 3 are the physics flag"
    );
    assert_eq!(
        &block[16..19],
        &[11, 12, 13],
        "row 1 holds Y_x1, Z_x1, R_x1"
    );
    for b23 in [[0u8, 0], [99, 15], [12, 13], [7, 200]] {
        let mut b = block;
        b[2..4].copy_from_slice(&b23);
        let bytes = file(&[Some((1, bone_record(b"a", 0, &b)))]);
        let key = round_trip(&bytes).bone_keys[0];
        assert_eq!(key.interpolation(), curves, "b2, b3 = {b23:?}");
        assert_eq!(key.interpolation().z.x1, b[17]);
        assert_eq!(key.interpolation().rotation.x1, b[18]);
    }
}

/// Seed 004 (same trap), in the fixtures: MMD's physics-off marker 99, 15 in row 0 bytes
/// 2, 3 (bmmd_physics_toggle: 9 keys; checked with xxd at file offset 49005: bone `D1`,
/// frame 60, block `14 14 63 0f 14 14 14 14 6b …`).
#[test]
fn physics_off_marker_99_15() {
    let mut key = BoneKey::new(
        ShiftJis::new("D1").unwrap(),
        60,
        [0.0; 3],
        [0.0, 0.0, 0.0, 1.0],
    );
    assert!(!key.physics_off());
    key.set_physics_off(true);
    assert!(key.physics_off());
    assert_eq!(&key.interpolation[..4], &[20, 20, 99, 15]);
    assert_eq!(
        key.interpolation(),
        Interpolation::LINEAR,
        "the flag is not curve data"
    );
    key.set_interpolation(&Interpolation::LINEAR);
    assert!(key.physics_off(), "new curves keep the flag");
    key.set_physics_off(false);
    assert_eq!(key.interpolation, SEED_DEFAULT);

    if let Some((bytes, vmd)) = fixture("bmmd_physics_toggle.vmd") {
        assert_eq!(vmd.bone_keys.iter().filter(|k| k.physics_off()).count(), 9);
        let i = (49005 - 54) / 111;
        let k = vmd.bone_keys[i];
        assert_eq!((k.name.decode().as_ref(), k.frame), ("D1", 60));
        assert!(k.physics_off());
        assert_eq!(k.interpolation(), Interpolation::LINEAR);
        assert_eq!(&bytes[49005 + 47..49005 + 51], &[0x14, 0x14, 0x63, 0x0f]);
    }
    if let Some((_, vmd)) = fixture("bmmd_physics_toggle_v2.vmd") {
        assert_eq!(vmd.bone_keys.iter().filter(|k| k.physics_off()).count(), 1);
    }
}

/// Seed 004: "同じ16バイトの並びを1バイトずつずらしながら4回書く" and "補間曲線64バイトの
/// ような触る必要のないデータを構造体へ展開して書き戻すと、往復で取りこぼしが起きます" —
/// MMD's layout rebuilt from the curves plus the non-curve bytes gives every MMD-written
/// block back; the one non-MMD writer's blocks (manim_ik_multi_bone) do not fit it, which
/// is why the 64 bytes are stored raw.
#[test]
fn interpolation_rebuilds_mmd_layout() {
    let rebuilt = |k: &BoneKey| k.interpolation().to_bytes_with(&k.interpolation_extras());
    // An older MMD's block: b2, b3 copy Z_x1, R_x1; row ends 01 / 01 00 / 01 00 00.
    let mut old = SEED_DEFAULT;
    old[2..4].copy_from_slice(&[20, 20]);
    old[31] = 1;
    old[46] = 1;
    old[61] = 1;
    let key = round_trip(&file(&[Some((1, bone_record(b"a", 0, &old)))])).bone_keys[0];
    assert_eq!(rebuilt(&key), old);
    assert_eq!(key.interpolation_extras().tail, [1, 1, 0, 1, 0, 0]);

    let Some(files) = corpus_files("vmd", "vmd") else {
        return;
    };
    let (mut keys, mut manim_off) = (0, 0);
    for path in &files {
        let vmd = Vmd::read_path(path).unwrap();
        let manim = path.ends_with("manim_ik_multi_bone.vmd");
        for k in &vmd.bone_keys {
            if manim {
                manim_off += usize::from(rebuilt(k) != k.interpolation);
            } else {
                assert_eq!(rebuilt(k), k.interpolation, "{}: {:?}", path.display(), k);
                keys += 1;
            }
        }
    }
    // Research notes §5: 45,770 bone keys outside manim_ik_multi_bone, 5 keys in it.
    assert_eq!(keys, 45_770);
    assert_eq!(manim_off, 5);
}

// ---- trap 10: the linear default -------------------------------------------------------

/// Seed 004: "制御点が対角線上、つまり (20, 20) と (107, 107) にあると直線(等速)になります。
/// MMDが新しいキーフレームに入れる既定値もこれです。" with the 64-byte listing.
#[test]
fn linear_default_block_matches_seed() {
    assert_eq!(Interpolation::LINEAR.to_bytes(), SEED_DEFAULT);
    assert_eq!(
        Interpolation::from_bytes(&SEED_DEFAULT),
        Interpolation::LINEAR
    );
    assert_eq!(Curve::LINEAR, Curve::new(20, 20, 107, 107));
    assert!(Curve::LINEAR.is_linear());
    assert!(!Curve::new(64, 0, 64, 127).is_linear());
    let key = BoneKey::new(
        ShiftJis::new("a").unwrap(),
        0,
        [0.0; 3],
        [0.0, 0.0, 0.0, 1.0],
    );
    assert_eq!(key.interpolation, SEED_DEFAULT);
}

// ---- trap 13 / trap 4: morphs -------------------------------------------------------------

/// Seed 004: "補間曲線を持ちません。表情はキーフレーム間を線形に繋ぐのが仕様です。" — the
/// morph record is name, frame, weight and nothing else: 23 bytes.
#[test]
fn morph_key_has_no_curve() {
    let bytes = file(&[
        empty(),
        Some((
            2,
            [morph_record(b"a", 0, 0.0), morph_record(b"a", 10, 1.0)].concat(),
        )),
    ]);
    assert_eq!(bytes.len(), 50 + 4 + 4 + 2 * 23);
    let v = round_trip(&bytes);
    assert_eq!(v.morph_keys.unwrap()[1].weight, 1.0);
}

// ---- trap 14: camera record ------------------------------------------------------------

/// Seed 004: "カメラの補間曲線24バイトは、6項目 ×(x1, x2, y1, y2)の素直な並びです…項目の順は
/// 0〜2 = 注視点のX/Y/Z、3 = 回転、4 = 距離、5 = 視野角。" plus the record table (view angle
/// u32 degrees at 56, perspective u8 at 60, 0 = on).
#[test]
fn camera_interpolation_is_six_curves_x1_x2_y1_y2() {
    let mut rec = camera_record(0);
    // gimme_camera frame 0 has `00 45 3f 7f` on X/Y/Z/rotation (research notes §6).
    rec[32..36].copy_from_slice(&[0x00, 0x45, 0x3f, 0x7f]);
    rec[48..52].copy_from_slice(&[1, 2, 3, 4]);
    rec[56..60].copy_from_slice(&u32le(83));
    rec[60] = 1;
    let bytes = file(&[empty(), empty(), Some((1, rec))]);
    let key = round_trip(&bytes).camera_keys.unwrap()[0];
    let c = key.interpolation();
    assert_eq!(c.target_x, Curve::new(0, 63, 69, 127));
    assert_eq!(c.target_y, Curve::LINEAR, "`20 107 20 107` is linear");
    assert_eq!(c.distance, Curve::new(1, 3, 2, 4));
    assert_eq!(c.to_bytes(), key.interpolation);
    assert_eq!((key.fov, key.perspective, key.distance), (83, 1, -45.0));
    assert_eq!(key.target, [0.0, 10.0, 0.0]);
    if let Some((_, vmd)) = fixture("gimme_camera.vmd") {
        let linear = vmd
            .camera_keys
            .as_ref()
            .unwrap()
            .iter()
            .filter(|k| k.interpolation == CameraInterpolation::LINEAR.to_bytes())
            .count();
        assert_eq!(linear, 1488, "research notes §6: 1,488 of 1,693 keys");
    }
}

// ---- trap 16: camera cuts --------------------------------------------------------------

/// Seed 004: "キーフレームが1フレームしか離れていない区間は補間しません。…フレーム番号で
/// 並べ直してから数えた値。ファイル内の並び順のまま数えると30になり、少なく出ます"
#[test]
fn camera_cuts_counted_after_sorting() {
    // File order 10, 0, 11, 1, 5: no neighbours one apart; sorted 0 1 5 10 11: two cuts.
    let frames = [10, 0, 11, 1, 5];
    let recs: Vec<u8> = frames.iter().flat_map(|&f| camera_record(f)).collect();
    let v = round_trip(&file(&[empty(), empty(), Some((5, recs))]));
    assert_eq!(v.camera_cuts(), 2);
    assert_eq!(v.summary().camera_cuts, 2);
    let order: Vec<u32> = v.camera_keys.unwrap().iter().map(|k| k.frame).collect();
    assert_eq!(order, frames, "counting does not reorder the records");
    // Fixtures, counted by an independent Python reader (sorted vs file order):
    // gimme_camera 163 vs 85; vmdgadgets_camera 5 vs 3 (frames checked by eye:
    // 620-621, 653-654, 960-961, 1070-1071, 1180-1181).
    for (name, cuts) in [("gimme_camera.vmd", 163), ("vmdgadgets_camera.vmd", 5)] {
        if let Some((_, vmd)) = fixture(name) {
            assert_eq!(vmd.camera_cuts(), cuts, "{name}");
        }
    }
}

// ---- trap 17 / 18: light record ---------------------------------------------------------

/// Seed 004: "色 (r, g, b)。0.0〜1.0" / "位置 (x, y, z)。実際は光の向きベクトル" and
/// "three.jsが内部で使うmmdparserは照明トラックを読みません。" — the light block is read,
/// and the direction is kept as stored (its length means nothing; it is not normalised).
#[test]
fn light_record_is_read_and_kept() {
    let mut rec = u32le(34).to_vec();
    for x in [1.0f32, 0.5, 0.25, 0.577, 1.155, -0.577] {
        rec.extend(f32le(x));
    }
    assert_eq!(rec.len(), 28);
    let v = round_trip(&file(&[empty(), empty(), empty(), Some((1, rec))]));
    let key = v.light_keys.unwrap()[0];
    assert_eq!(key.frame, 34);
    assert_eq!(key.color, [1.0, 0.5, 0.25]);
    assert_eq!(key.direction, [0.577, 1.155, -0.577]);
}

// ---- trap 19: self-shadow and IK / show -------------------------------------------------

/// Seed 004: "セルフ影 0 / 4 / 5 フレーム番号(uint32) / 種別(uint8) / 距離(float32)"
#[test]
fn self_shadow_record_is_9_bytes_unaligned() {
    let mut rec = u32le(5).to_vec();
    rec.push(2);
    rec.extend(f32le(0.088_75));
    let v = round_trip(&file(&[empty(), empty(), empty(), empty(), Some((1, rec))]));
    let key = v.self_shadow_keys.unwrap()[0];
    assert_eq!((key.frame, key.mode, key.distance), (5, 2, 0.088_75));
}

/// Seed 004: "IK/表示切替だけはレコード長が可変(9 + 21 × IK数)なので、件数だけを見て一気に
/// 読み飛ばすことができません。1件ずつIK数を読んで進める必要があります。ここでのボーン名は
/// 15バイトではなく20バイトである点にも注意してください。"
#[test]
fn ik_record_is_variable_read_one_at_a_time() {
    let mut recs = Vec::new();
    recs.extend(u32le(0));
    recs.push(1);
    recs.extend(u32le(0)); // 0 IK states: a 9-byte record
    recs.extend(u32le(30));
    recs.push(0);
    recs.extend(u32le(2));
    recs.extend(field(&sjis("前クローク2_1xcIK"), 20));
    recs.push(1);
    recs.extend(field(&sjis("左足ＩＫ"), 20));
    recs.push(0);
    assert_eq!(recs.len(), 9 + 9 + 2 * 21);
    let e = empty;
    let v = round_trip(&file(&[e(), e(), e(), e(), e(), Some((2, recs))]));
    let keys = v.show_ik_keys.unwrap();
    assert_eq!(keys[0].ik.len(), 0);
    assert!(keys[0].visible());
    assert_eq!((keys[1].frame, keys[1].visible()), (30, false));
    assert_eq!(
        keys[1].ik[0].name.decode(),
        "前クローク2_1xcIK",
        "17 bytes: IK names are 20"
    );
    assert!(keys[1].ik[0].is_enabled());
    assert!(!keys[1].ik[1].is_enabled());
}

/// Seed 004 (same trap), the strict side: an IK count whose 21 × n bytes are not there is
/// an error at that count, found record by record.
#[test]
fn ik_count_beyond_the_file_is_error() {
    let mut recs = u32le(0).to_vec();
    recs.push(1);
    recs.extend(u32le(2));
    recs.extend(field(b"a", 21)); // only one of the two IK states
    let e = empty;
    let bytes = file(&[e(), e(), e(), e(), e(), Some((1, recs))]);
    let err = Vmd::from_bytes(&bytes).unwrap_err();
    assert_eq!(err.offset(), 50 + 5 * 4 + 4 + 5, "{err}");
    assert_eq!(err.path_string(), "show_ik_keys[0].ik");
}

// ---- trap 20: kind ---------------------------------------------------------------------

/// Seed 004: "モーション ボーンのキーフレームが10件を超える / 表情 表情が10件を超え、ボーンが
/// 10件以下 / カメラ カメラが10件を超え、ボーンが10件以下 / 照明 照明が1件以上あり、ボーンと
/// カメラが10件以下 / 不明 上のどれにも当てはまらない"
#[test]
fn kind_thresholds() {
    use MotionKind::*;
    let k = MotionKind::classify;
    assert_eq!(k(11, 0, 0, 0), Motion);
    assert_eq!(k(10, 0, 0, 0), Unknown);
    assert_eq!(k(11, 11, 11, 5), Motion, "bone first");
    assert_eq!(k(10, 11, 0, 0), Morph);
    assert_eq!(k(10, 10, 0, 0), Unknown);
    assert_eq!(k(0, 11, 11, 0), Morph, "morph before camera");
    assert_eq!(k(10, 0, 11, 0), Camera);
    assert_eq!(k(0, 0, 10, 0), Unknown);
    assert_eq!(k(0, 0, 11, 1), Camera, "camera > 10 is not light");
    assert_eq!(k(10, 0, 10, 1), Light);
    assert_eq!(k(0, 0, 0, 0), Unknown, "light 0 is not light");
    assert_eq!(k(0, 10, 0, 1), Light);
    assert_eq!(k(11, 0, 0, 1), Motion);
    // An absent block counts as 0 (openmmd_light has no IK block).
    let light = file(&[
        empty(),
        empty(),
        empty(),
        Some((1, [u32le(0).to_vec(), vec![0; 24]].concat())),
    ]);
    assert_eq!(round_trip(&light).summary().kind, Light);
}

// ---- trap 23: keep records raw ---------------------------------------------------------

/// Seed 004: "レコードは生バイト列のまま持ち回るほうが安全。" — file order, duplicates and
/// float bits all survive; nothing is sorted or normalised.
#[test]
fn record_order_kept_unsorted() {
    let recs = [
        bone_record(b"b", 30, &SEED_DEFAULT),
        bone_record(b"a", 0, &SEED_DEFAULT),
        bone_record(b"b", 0, &SEED_DEFAULT),
        bone_record(b"b", 0, &SEED_DEFAULT),
    ]
    .concat();
    let v = round_trip(&file(&[Some((4, recs))]));
    let order: Vec<(String, u32)> = v
        .bone_keys
        .iter()
        .map(|k| (k.name.decode().into_owned(), k.frame))
        .collect();
    let want = [("b", 30), ("a", 0), ("b", 0), ("b", 0)];
    assert_eq!(order, want.map(|(n, f)| (n.to_string(), f)));
    assert_eq!(v.summary().bone_names, ["b", "a"], "first-seen order");
    if let Some((_, mei)) = fixture("mei_wait.vmd") {
        // Research notes §9: mei_wait's bone keys are not sorted by frame.
        assert!(mei.bone_keys.windows(2).any(|w| w[1].frame < w[0].frame));
    }
}

/// Seed 004 (same line): floats are stored as bit patterns (-0.0 is common; a NaN
/// payload must survive too).
#[test]
fn floats_kept_as_bits() {
    let mut rec = bone_record(b"a", 0, &SEED_DEFAULT);
    rec[19..23].copy_from_slice(&(-0.0f32).to_le_bytes());
    rec[23..27].copy_from_slice(&0x7fc0_1234u32.to_le_bytes());
    let v = round_trip(&file(&[Some((1, rec))]));
    assert_eq!(v.bone_keys[0].position[0].to_bits(), 0x8000_0000);
    assert_eq!(v.bone_keys[0].position[1].to_bits(), 0x7fc0_1234);
}

/// Bytes after the last block (Nuthouse01's writer appends `Nuthouse01`) are kept.
#[test]
fn trailing_bytes_kept() {
    let mut bytes = file(&[empty(), empty(), empty(), empty(), empty(), empty()]);
    bytes.extend(b"Nuthouse01");
    let v = round_trip(&bytes);
    assert_eq!(v.trailing, b"Nuthouse01");
    assert_eq!(v.summary().trailing_bytes, 10);
}

// ---- trap 26: model name cut mid-character ---------------------------------------------

/// Seed 004: "モデル名の20バイトは、途中でマルチバイト文字が切れていることがある。そのまま
/// デコードすると末尾に置換文字(U+FFFD)が出ます。表示に使うなら落としてください。"
/// Fixture miu_shagamu: `Tda式初音ミク Mトレ` + lone lead byte 0x81 (checked with xxd).
#[test]
fn name_cut_mid_character_drops_half() {
    let mut name = sjis("Tda式初音ミク Mトレ");
    assert_eq!(name.len(), 19);
    name.push(0x81);
    let mut bytes = header_v2(&name);
    bytes.extend(u32le(0));
    let v = round_trip(&bytes);
    assert_eq!(v.header.model_name.decode(), "Tda式初音ミク Mトレ");
    assert_eq!(
        v.header.model_name.as_bytes()[19],
        0x81,
        "the half is kept in the file"
    );
    assert_eq!(v.summary().model_name, "Tda式初音ミク Mトレ");
    // The same in a 15-byte bone name: seven characters and half of an eighth.
    let mut bone = sjis("左人指３先ＩＫ");
    bone.push(0x83);
    let key = round_trip(&file(&[Some((1, bone_record(&bone, 0, &SEED_DEFAULT)))])).bone_keys[0];
    assert_eq!(key.name.decode(), "左人指３先ＩＫ");
    if let Some((bytes, vmd)) = fixture("miu_shagamu.vmd") {
        assert_eq!(bytes[49], 0x81);
        assert_eq!(vmd.summary().model_name, "Tda式初音ミク Mトレ");
    }
}

// ---- summary() on fixtures, values checked by hand -------------------------------------

/// openmmd_light.vmd (126 bytes), read from `xxd`: counts 0, 0, 0 at 50/54/58; light count
/// 2 at 62; keys at frame 0 and 0x22 = 34 with colour 1.0 × 3; self-shadow count 0 at 122;
/// the file ends there (no IK block). Model name `light`.
#[test]
fn summary_openmmd_light() {
    let Some((_, v)) = fixture("openmmd_light.vmd") else {
        return;
    };
    let s = v.summary();
    assert_eq!(s.version, Some(VmdVersion::V2));
    assert_eq!(s.model_name, "light");
    assert_eq!(
        (s.bone_keys, s.morph_keys, s.camera_keys, s.light_keys),
        (0, Some(0), Some(0), Some(2))
    );
    assert_eq!((s.self_shadow_keys, s.show_ik_keys), (Some(0), None));
    assert_eq!(s.kind, MotionKind::Light);
    assert_eq!(s.frame_range, Some((0, 34)));
    assert_eq!(s.duration_secs, 34.0 / 30.0);
    assert!(s.bone_names.is_empty() && s.morph_names.is_empty());
    assert_eq!(s.camera_cuts, 0);
    let keys = v.light_keys.unwrap();
    assert_eq!(keys[0].color, [1.0; 3]);
    assert_eq!(keys[0].direction[0].to_bits(), 0x3f13_cd3b);
}

/// miu_morph_a.vmd (97 bytes), read from `xxd`: model name 83 82 81 5b 83 74 83 60 83 46
/// 83 62 83 4e = `モーフチェック`; bone count 0; one morph key `あ` (82 a0) at frame 0 with
/// weight 00 00 80 3f = 1.0; then four zero counts to the end.
#[test]
fn summary_miu_morph_a() {
    let Some((_, v)) = fixture("miu_morph_a.vmd") else {
        return;
    };
    let s = v.summary();
    assert_eq!(s.model_name, "モーフチェック");
    assert_eq!((s.bone_keys, s.morph_keys), (0, Some(1)));
    assert_eq!(
        (
            s.camera_keys,
            s.light_keys,
            s.self_shadow_keys,
            s.show_ik_keys
        ),
        (Some(0), Some(0), Some(0), Some(0))
    );
    assert_eq!(s.kind, MotionKind::Unknown);
    assert_eq!(s.morph_names, ["あ"]);
    assert_eq!(s.frame_range, Some((0, 0)));
    assert_eq!(s.duration_secs, 0.0);
    assert_eq!(v.morph_keys.unwrap()[0].weight, 1.0);
}

/// vmdgadgets_camera.vmd (1904 bytes = 50 + 3 × 4 + 30 × 61 + 3 × 4): model name bytes
/// 83 4a 83 81 83 89 81 45 8f c6 96 be = `カメラ・照明`, NUL, `on Data` (xxd); 30 camera
/// keys whose frames (printed by a Python reader and checked by eye) run 0..1515 with 5
/// cuts after sorting.
#[test]
fn summary_vmdgadgets_camera() {
    let Some((_, v)) = fixture("vmdgadgets_camera.vmd") else {
        return;
    };
    let s = v.summary();
    assert_eq!(s.model_name, "カメラ・照明");
    assert_eq!(&v.header.model_name.as_bytes()[13..], b"on Data");
    assert_eq!((s.bone_keys, s.camera_keys), (0, Some(30)));
    assert_eq!(
        (s.light_keys, s.self_shadow_keys, s.show_ik_keys),
        (Some(0), Some(0), Some(0))
    );
    assert_eq!(s.kind, MotionKind::Camera);
    assert_eq!(s.frame_range, Some((0, 1515)));
    assert_eq!(s.duration_secs, 50.5);
    assert_eq!(s.camera_cuts, 5);
}

/// The kinds over the whole corpus, by the seed's thresholds (research notes §9, whose
/// counts were computed by an independent reader): 14 motion, 2 camera, 1 morph, 1 light,
/// 8 unknown.
#[test]
fn summary_kinds_over_the_corpus() {
    let Some(files) = corpus_files("vmd", "vmd") else {
        return;
    };
    let mut tally = std::collections::BTreeMap::new();
    for path in &files {
        let kind = Vmd::read_path(path).unwrap().summary().kind;
        *tally.entry(kind.name()).or_insert(0) += 1;
    }
    let want = [
        ("camera", 2),
        ("light", 1),
        ("morph", 1),
        ("motion", 14),
        ("unknown", 8),
    ];
    assert_eq!(tally.into_iter().collect::<Vec<_>>(), want);
}
