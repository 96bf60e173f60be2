//! What the CLI tests written with it share: running `mmd`, reading what it printed, and
//! a temporary folder.
#![allow(dead_code)] // each test file uses its own part

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs `mmd` with `args` to its end.
pub fn mmd(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mmd"))
        .args(args)
        .output()
        .expect("cannot run the mmd binary")
}

/// Runs `mmd` with `args`, `stdin` (if any) given on its standard input.
pub fn mmd_with_input(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mmd"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot run the mmd binary");
    {
        use std::io::Write;
        let mut input = child.stdin.take().expect("a piped stdin");
        input
            .write_all(stdin.unwrap_or_default())
            .expect("cannot write to mmd's stdin");
    }
    child.wait_with_output().expect("cannot wait for mmd")
}

/// The exit code (`None` when a signal ended the process).
pub fn code(o: &Output) -> Option<i32> {
    o.status.code()
}

/// What was printed on stdout.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What was printed on stderr.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The JSON document `mmd` printed.
pub fn json(o: &Output) -> serde_json::Value {
    let text = stdout(o);
    serde_json::from_str(text.trim())
        .unwrap_or_else(|e| panic!("not JSON ({e}): {text}\nstderr: {}", stderr(o)))
}

/// A path as a `&str` argument.
pub fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

/// A fresh folder under the system temporary folder, removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A new empty folder whose name has `tag` in it.
    pub fn new(tag: &str) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let d = std::env::temp_dir().join(format!("mmd-cli-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&d).expect("cannot create a temporary folder");
        TempDir(d)
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// A path in the folder.
    pub fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// The names of the files in the folder, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&self.0)
            .expect("cannot list a temporary folder")
            .map(|e| {
                e.expect("a folder entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        v.sort();
        v
    }

    /// Writes `bytes` to `name` in the folder; its path.
    pub fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.file(name);
        std::fs::write(&path, bytes).expect("cannot write a temporary file");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The first built-in sample of `format` (`"pmx"`, `"vmd"`, ...) by its name's folder.
pub fn sample(folder: &str) -> Vec<u8> {
    mmd_formats::samples::all()
        .into_iter()
        .find(|s| s.name.starts_with(&format!("{folder}/")))
        .unwrap_or_else(|| panic!("no {folder} sample"))
        .bytes
}
