//! Every hand-laid sample reads into the values its bytes say and writes back byte for
//! byte; cut and corrupt files are errors that name the offset and the field, never a
//! panic.

mod common;

use everyday_formats::bmp::{Bmp, Colour, Row};
use everyday_formats::ico::{Ico, IconImage};
use everyday_formats::wav::{Chunk, InfoItem, List, Wav};
use everyday_formats::{read, write};
use mmd_formats::codec::{Decode, Encode};

fn round_trips<T: Decode<()> + Encode<()>>(samples: Vec<(&str, Vec<u8>)>) {
    for (name, bytes) in samples {
        let v: T = read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(write(&v).unwrap(), bytes, "{name}");
    }
}

#[test]
fn every_sample_round_trips_byte_for_byte() {
    round_trips::<Wav>(common::wavs());
    round_trips::<Bmp>(common::bmps());
    round_trips::<Ico>(common::icos());
}

#[test]
fn every_cut_of_every_sample_is_an_error_never_a_panic() {
    fn cuts<T: Decode<()> + std::fmt::Debug>(samples: Vec<(&str, Vec<u8>)>) {
        for (name, bytes) in samples {
            for n in 0..bytes.len() {
                let e = read::<T>(&bytes[..n]).map(|_| ()).err();
                // A cut may still read (a file of no images ends anywhere after its
                // header; gaps take any tail), but never past its bytes.
                if let Some(e) = e {
                    assert!(e.offset() <= n as u64, "{name}[..{n}]: {e}");
                }
            }
        }
    }
    cuts::<Wav>(common::wavs());
    cuts::<Bmp>(common::bmps());
    cuts::<Ico>(common::icos());
}

#[test]
fn the_wav_values_are_what_the_bytes_say() {
    let v: Wav = read(&common::WAV_PCM_INFO).unwrap();
    assert_eq!(v.riff_size, 98);
    let chunks = &v.wave.chunks;
    assert_eq!(chunks.len(), 4);
    let Chunk::Format {
        size: 16,
        format,
        pad: None,
    } = &chunks[0]
    else {
        panic!("{:?}", chunks[0])
    };
    assert_eq!(
        (format.format_tag, format.channels, format.sample_rate),
        (1, 1, 8000)
    );
    assert_eq!(format.extension_size, None);
    let Chunk::Data {
        size: 3,
        samples,
        pad: Some(0),
    } = &chunks[1]
    else {
        panic!("{:?}", chunks[1])
    };
    assert_eq!(samples, &[0x80, 0x81, 0x7f]);
    let Chunk::List {
        size: 40,
        list: List::Info { items },
        pad: None,
    } = &chunks[2]
    else {
        panic!("{:?}", chunks[2])
    };
    let InfoItem::Title(title) = &items[0] else {
        panic!("{:?}", items[0])
    };
    assert_eq!(
        (title.text.text().into_owned(), title.pad),
        ("Hi".to_string(), Some(0))
    );
    let InfoItem::Other { id, text } = &items[1] else {
        panic!("{:?}", items[1])
    };
    assert_eq!(*id, u32::from_le_bytes(*b"ICMT"));
    assert_eq!(text.text.text(), "ok");
    assert_eq!(
        text.text.as_bytes(),
        b"ok\0\xee",
        "the byte after the NUL is kept"
    );
    assert!(matches!(&items[2], InfoItem::Software(t) if t.text.text() == "mmd"));
    let Chunk::Other {
        id,
        size: 1,
        body,
        pad: Some(0),
    } = &chunks[3]
    else {
        panic!("{:?}", chunks[3])
    };
    assert_eq!(
        (*id, body.as_slice()),
        (u32::from_le_bytes(*b"junk"), &[0x55][..])
    );
    assert!(v.trailing.is_empty());

    let v: Wav = read(&common::WAV_EXTENSIBLE).unwrap();
    let Chunk::Format { format, .. } = &v.wave.chunks[0] else {
        panic!()
    };
    assert_eq!(
        (format.format_tag, format.extension_size),
        (0xfffe, Some(22))
    );
    let x = format.extensible.as_ref().expect("the extensible fields");
    assert_eq!((x.valid_bits, x.channel_mask), (16, 3));
    assert_eq!(x.sub_format[..2], [1, 0]);
    assert!(format.extra.is_empty());
    let Chunk::List {
        list: List::Other { list_type, bytes },
        ..
    } = &v.wave.chunks[2]
    else {
        panic!("{:?}", v.wave.chunks[2])
    };
    assert_eq!(
        (*list_type, bytes.as_slice()),
        (u32::from_le_bytes(*b"adtl"), &[1, 2, 3, 4][..])
    );
    assert_eq!(v.trailing, b"XY");

    let v: Wav = read(&common::WAV_FLOAT18).unwrap();
    let Chunk::Format { format, .. } = &v.wave.chunks[0] else {
        panic!()
    };
    assert_eq!(
        (format.format_tag, format.extension_size, &format.extensible),
        (3, Some(0), &None)
    );
}

#[test]
fn the_bmp_values_are_what_the_bytes_say() {
    let v: Bmp = read(&common::BMP_CORE).unwrap();
    assert_eq!(
        (v.header_size, v.core_width, v.core_height, v.width),
        (12, Some(2), Some(2), None)
    );
    assert_eq!(
        v.colour_table,
        vec![
            Colour {
                blue: 0,
                green: 0,
                red: 0,
                reserved: vec![]
            },
            Colour {
                blue: 0xff,
                green: 0xff,
                red: 0xff,
                reserved: vec![]
            },
        ]
    );
    assert_eq!(
        v.rows,
        vec![
            Row {
                pixels: vec![0x80],
                padding: vec![0, 0, 0]
            },
            Row {
                pixels: vec![0x40],
                padding: vec![0xaa, 0xbb, 0xcc]
            },
        ]
    );
    assert_eq!(
        v.gaps,
        vec![vec![0xee, 0xee]],
        "the junk before the pixel offset"
    );

    let v: Bmp = read(&common::BMP_INFO_BITFIELDS).unwrap();
    assert_eq!(
        (v.width, v.height, v.compression),
        (Some(1), Some(-2), Some(3))
    );
    assert_eq!(v.bitfields, Some(vec![0xf800, 0x07e0, 0x001f]));
    assert!(v.colour_table.is_empty() && v.gaps.is_empty());
    assert_eq!(v.rows.len(), 2, "|-2| rows");
    assert_eq!(v.rows[0].pixels, [0x1f, 0]);

    let v: Bmp = read(&common::BMP_V2).unwrap();
    assert_eq!(v.rgb_masks, Some([0x00ff_0000, 0x0000_ff00, 0x0000_00ff]));
    assert_eq!((v.alpha_mask, v.bitfields.as_ref()), (None, None));
    assert_eq!(v.colour_table.len(), 2, "colours used");
    assert_eq!(v.colour_table[1].reserved, [0]);
    assert_eq!(
        v.rows[0],
        Row {
            pixels: vec![0, 1, 0],
            padding: vec![0]
        }
    );
    assert_eq!(v.gaps, vec![vec![0x99]], "the junk after the pixels");

    let v: Bmp = read(&common::BMP_V3).unwrap();
    assert_eq!(
        (v.alpha_mask, v.bitfields.as_ref()),
        (Some(0xff00_0000), None)
    );
    assert_eq!(v.rows[0].pixels, [1, 2, 3, 4]);

    let v: Bmp = read(&common::BMP_V4).unwrap();
    assert_eq!(v.colour_space, Some(u32::from_be_bytes(*b"sRGB")));
    assert_eq!((v.endpoints, v.intent), (Some([0; 9]), None));

    let v: Bmp = read(&common::BMP_V5_EMBEDDED).unwrap();
    assert_eq!((v.profile_offset, v.profile_size), (Some(129), Some(4)));
    assert_eq!(
        v.profile.as_ref().map(|p| p.bytes.as_slice()),
        Some(&b"acsp"[..])
    );
    assert_eq!(v.profile_name, None);
    assert_eq!(
        v.gaps,
        vec![vec![0x77]],
        "the junk between the pixels and the profile"
    );

    let v: Bmp = read(&common::BMP_V5_LINKED).unwrap();
    assert_eq!(v.profile, None);
    assert_eq!(
        v.profile_name.as_ref().map(|n| n.name.text().into_owned()),
        Some("c.icc".to_string())
    );
    assert!(v.gaps.is_empty());

    let v: Bmp = read(&common::BMP_UNKNOWN_64).unwrap();
    assert_eq!(
        (v.header_size, v.alpha_mask, v.colour_space),
        (64, Some(0), None)
    );
    assert_eq!(v.header_extra, [1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(v.colour_table.len(), 2, "2^1 colours");
}

#[test]
fn the_ico_values_are_what_the_bytes_say() {
    let v: Ico = read(&common::ICO_OUT_OF_ORDER).unwrap();
    assert_eq!(
        (v.count, v.entries[0].offset, v.entries[1].offset),
        (2, 48, 39)
    );
    assert_eq!(
        v.images,
        vec![
            IconImage::Png {
                rest: vec![0x0d, 0x0a, 0x1a, 0x0a]
            },
            IconImage::Dib {
                header_size: 40,
                rest: vec![0xd1, 0xd2]
            },
        ]
    );
    assert_eq!(v.gaps, vec![vec![0xee], vec![0xdd; 3], vec![0xcc; 2]]);
    let v: Ico = read(&common::CUR_ONE).unwrap();
    assert_eq!(
        (v.kind, v.entries[0].planes, v.entries[0].bits_per_pixel),
        (2, 3, 4)
    );
    assert!(v.gaps.is_empty());
    let v: Ico = read(&common::ICO_EMPTY).unwrap();
    assert!(v.entries.is_empty() && v.images.is_empty() && v.gaps.is_empty());
}

#[test]
fn an_i32_min_height_is_an_error_not_a_panic() {
    let mut b = common::BMP_INFO_BITFIELDS.to_vec();
    b[22..26].copy_from_slice(&i32::MIN.to_le_bytes());
    let e = read::<Bmp>(&b).unwrap_err();
    let text = e.to_string();
    // The error names the field the rows' count reads, at its offset, and the
    // expression that overflowed.
    assert_eq!(
        (e.path_string().as_str(), e.offset()),
        ("height", 22),
        "{text}"
    );
    assert!(
        text.contains("-2147483648") && text.contains("overflows"),
        "{text}"
    );
    assert!(text.contains("`height.unwrap_or(0).abs()`"), "{text}");
    // The other extremes: a huge width, a negative width, a huge colour count.
    let mut b = common::BMP_INFO_BITFIELDS.to_vec();
    b[18..22].copy_from_slice(&i32::MAX.to_le_bytes());
    assert!(read::<Bmp>(&b).is_err());
    let mut b = common::BMP_INFO_BITFIELDS.to_vec();
    b[18..22].copy_from_slice(&(-5i32).to_le_bytes());
    assert!(read::<Bmp>(&b).is_err());
    let mut b = common::BMP_V2.to_vec();
    b[46..50].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = read::<Bmp>(&b).unwrap_err();
    assert_eq!(e.path_string(), "colour_table", "{e}");
}

#[test]
fn corrupt_files_name_the_offset_and_the_field() {
    // WAV: a chunk claiming more bytes than the RIFF size holds.
    let mut b = common::WAV_PCM_INFO.to_vec();
    b[40] = 200; // data size 200
    let e = read::<Wav>(&b).unwrap_err();
    assert!(e.path_string().starts_with("wave.chunks[1].Data"), "{e}");
    assert!(
        e.to_string().contains("0x2c"),
        "the samples start at 44: {e}"
    );
    // WAV: the form type is not WAVE.
    let mut b = common::WAV_PCM_INFO.to_vec();
    b[8] = b'X';
    let e = read::<Wav>(&b).unwrap_err();
    assert_eq!(
        (e.offset(), e.path_string().as_str()),
        (8, "wave.magic"),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains(r#"magic "XAVE" at 0x8 (expected magic "WAVE")"#),
        "{e}"
    );
    // BMP: a header size below 16 (and not 12) cannot hold its fields: the count of its
    // other bytes is negative, an error at the size.
    let mut b = common::BMP_V3.to_vec();
    b[14] = 14;
    let e = read::<Bmp>(&b).unwrap_err();
    assert_eq!(
        (e.path_string().as_str(), e.offset()),
        ("header_size", 14),
        "{e}"
    );
    assert!(e.to_string().contains("14 - 16, which overflows"), "{e}");
    // BMP: an unknown compression with bit-field masks is not a mask count (kept as it
    // is: no masks), and the file still round-trips.
    let mut b = common::BMP_INFO_BITFIELDS.to_vec();
    b[30] = 4; // compression 4 (JPEG): no masks, so the 12 mask bytes are a gap
    let v = read::<Bmp>(&b).unwrap();
    assert_eq!((v.bitfields.as_ref(), v.gaps.len()), (None, 1), "{v:?}");
    assert_eq!(write(&v).unwrap(), b);
    // BMP: the pixel offset past the end.
    let mut b = common::BMP_V3.to_vec();
    b[10] = 200;
    let e = read::<Bmp>(&b).unwrap_err();
    assert_eq!(e.path_string(), "rows[0]", "{e}");
    assert!(e.to_string().contains("4 bytes at offset 0xc8"), "{e}");
    // BMP: a profile offset past the end.
    let mut b = common::BMP_V5_EMBEDDED.to_vec();
    b[126] = 250;
    let e = read::<Bmp>(&b).unwrap_err();
    assert_eq!(e.path_string(), "profile", "{e}");
    assert!(e.to_string().contains("at offset 0x108"), "14 + 250: {e}");
    // ICO: an image past the end.
    let mut b = common::ICO_OUT_OF_ORDER.to_vec();
    b[18] = 60;
    let e = read::<Ico>(&b).unwrap_err();
    assert_eq!(e.path_string(), "images[0]", "{e}");
    assert!(e.to_string().contains("8 bytes at offset 0x3c"), "{e}");
    // ICO: more images than the directory has room for.
    let mut b = common::ICO_OUT_OF_ORDER.to_vec();
    b[4] = 0xff;
    let e = read::<Ico>(&b).unwrap_err();
    assert!(e.path_string().starts_with("entries"), "{e}");
}

#[test]
fn values_that_no_longer_fit_are_write_errors() {
    // A data chunk whose samples no longer match its size.
    let mut v: Wav = read(&common::WAV_PCM_INFO).unwrap();
    let Chunk::Data { samples, .. } = &mut v.wave.chunks[1] else {
        panic!()
    };
    samples.push(0);
    let e = write(&v).unwrap_err();
    assert!(
        e.path_string().starts_with("wave.chunks[1].Data.samples"),
        "{e}"
    );
    // A row longer than the stride.
    let mut v: Bmp = read(&common::BMP_CORE).unwrap();
    v.rows[1].padding.push(0);
    let e = write(&v).unwrap_err();
    assert!(e.path_string().starts_with("rows[1]"), "{e}");
    // An icon image that grew past its entry's size.
    let mut v: Ico = read(&common::ICO_OUT_OF_ORDER).unwrap();
    let IconImage::Dib { rest, .. } = &mut v.images[1] else {
        panic!()
    };
    rest.push(0);
    let e = write(&v).unwrap_err();
    assert_eq!(e.path_string(), "images[1]", "{e}");
}

#[test]
fn every_byte_of_every_sample_changed_reads_or_fails_without_a_panic() {
    fn mutate<T: Decode<()> + Encode<()>>(samples: Vec<(&str, Vec<u8>)>) -> (usize, usize) {
        let (mut read_back, mut refused) = (0, 0);
        for (name, bytes) in samples {
            for i in 0..bytes.len() {
                for x in [0u8, 1, 0x7f, 0x80, 0xff, bytes[i] ^ 1] {
                    let mut b = bytes.clone();
                    b[i] = x;
                    match read::<T>(&b) {
                        // What reads writes back to the same bytes.
                        Ok(v) => {
                            assert_eq!(write(&v).unwrap(), b, "{name}[{i}] = {x:#x}");
                            read_back += 1;
                        }
                        Err(e) => {
                            assert!(!e.to_string().is_empty());
                            refused += 1;
                        }
                    }
                }
            }
        }
        (read_back, refused)
    }
    for (read_back, refused) in [
        mutate::<Wav>(common::wavs()),
        mutate::<Bmp>(common::bmps()),
        mutate::<Ico>(common::icos()),
    ] {
        // Both happen: the test can fail either way.
        assert!(
            read_back > 0 && refused > 0,
            "{read_back} read, {refused} refused"
        );
    }
}
