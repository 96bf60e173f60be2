//! Texture paths: absolute ones (W021), and, on disk, the ones that name no file (W020).

use std::path::{Path, PathBuf};

use super::{finding, Finding, Model};
use crate::text::decode_sjis;

/// W021 when `text` is an absolute path: a drive letter, a leading backslash or slash.
pub fn absolute(out: &mut Vec<Finding>, path: String, text: &str) {
    let b = text.as_bytes();
    let drive = b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':';
    if drive || text.starts_with('\\') || text.starts_with('/') {
        out.push(finding(
            "W021",
            path,
            format!("{text:?} is an absolute path: on another machine the texture is missing"),
        ));
    }
}

/// Every texture path the model names, with where it is: `(path, text)`. PMD toon names
/// of MMD's own toons (`toon01.bmp` .. `toon10.bmp`, shipped with MMD) are left out.
pub fn texture_paths(model: Model<'_>) -> Vec<(String, String)> {
    match model {
        Model::Pmx(m) => m
            .textures
            .iter()
            .enumerate()
            .map(|(i, t)| (format!("textures[{i}]"), t.to_string_lossy().into_owned()))
            .collect(),
        Model::Pmd(m) => {
            let mut out = Vec::new();
            for (i, material) in m.materials.iter().enumerate() {
                let files = material.texture_files();
                for part in [files.texture, files.sphere].into_iter().flatten() {
                    out.push((
                        format!("materials[{i}].texture"),
                        decode_sjis(part).into_owned(),
                    ));
                }
            }
            if let Some(toons) = &m.toon_textures {
                for (k, name) in toons.names.iter().enumerate() {
                    let text = name.decode().into_owned();
                    if !text.is_empty() && !is_standard_toon(&text) {
                        out.push((format!("toon_textures.names[{k}]"), text));
                    }
                }
            }
            out
        }
    }
}

/// `toon01.bmp` .. `toon10.bmp`: the toons MMD ships in its own Data folder.
fn is_standard_toon(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    (1..=10).any(|n| lower == format!("toon{n:02}.bmp"))
}

/// W020 for every texture path (not absolute, not empty) that names no file under `dir`.
pub fn check_on_disk(model: Model<'_>, dir: &Path) -> Vec<Finding> {
    let mut out = Vec::new();
    for (path, text) in texture_paths(model) {
        let mut ignored = Vec::new();
        absolute(&mut ignored, String::new(), &text);
        if text.trim().is_empty() || !ignored.is_empty() {
            continue;
        }
        if find(dir, &text).is_none() {
            out.push(finding(
                "W020",
                path,
                format!("{text:?} is not a file beside the model"),
            ));
        }
    }
    out
}

/// The file `relative` names under `dir`, its parts separated by `\` or `/`, each part
/// matched exactly or else ignoring letter case (as Windows does).
fn find(dir: &Path, relative: &str) -> Option<PathBuf> {
    let mut at = dir.to_path_buf();
    for part in relative
        .split(['\\', '/'])
        .filter(|p| !p.is_empty() && *p != ".")
    {
        if part == ".." {
            at.pop();
            continue;
        }
        let exact = at.join(part);
        if exact.exists() {
            at = exact;
            continue;
        }
        let wanted = part.to_lowercase();
        let entry = std::fs::read_dir(&at).ok()?.flatten().find(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.to_lowercase() == wanted)
        })?;
        at = entry.path();
    }
    at.is_file().then_some(at)
}
