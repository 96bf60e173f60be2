//! The `speed` bench's output: Markdown tables with notes, or JSON.

use super::peers::{Format, Peer, PEER_BUILD_NOTES, PEER_CRATES};
use super::{PeerResult, Row};
use std::fmt::Write as _;

/// Our write-buffer and bookkeeping allowance on top of 1.5x for the peak-heap target.
const PEAK_SLACK: usize = 64 * 1024;

fn mbps(size: usize, secs: f64) -> f64 {
    size as f64 / secs / 1e6
}

fn fmt_mbps(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.0}")
    } else {
        "-".into()
    }
}

fn fmt_x(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.2}x")
    } else {
        "-".into()
    }
}

impl Row {
    fn read_mbps(&self) -> f64 {
        self.read.as_ref().map_or(f64::NAN, |s| mbps(self.size, *s))
    }
    fn write_mbps(&self) -> f64 {
        self.write
            .as_ref()
            .map_or(f64::NAN, |s| mbps(self.size, *s))
    }
    fn to_bytes_mbps(&self) -> f64 {
        self.to_bytes
            .as_ref()
            .map_or(f64::NAN, |s| mbps(self.size, *s))
    }
    /// The fastest peer's MB/s: among full readers only, or among all.
    fn best_peer(&self, full_only: bool) -> Option<(&'static str, f64)> {
        self.peers
            .iter()
            .filter(|(_, full, _)| *full || !full_only)
            .filter_map(|(n, _, r)| match r {
                PeerResult::Ok { secs, .. } => Some((*n, mbps(self.size, *secs))),
                _ => None,
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
    }
    /// The MB/s of the named peer, when it read the file.
    fn peer_mbps(&self, name: &str) -> Option<f64> {
        self.peers.iter().find_map(|(n, _, r)| match r {
            PeerResult::Ok { secs, .. } if *n == name => Some(mbps(self.size, *secs)),
            _ => None,
        })
    }
    fn size_x(&self, bytes: usize) -> f64 {
        bytes as f64 / self.size as f64
    }
}

/// One scale pair: (label, small, large).
fn pairs(rows: &[Row]) -> Vec<(&'static str, &Row, &Row)> {
    let mut out = Vec::new();
    for large in rows.iter().filter(|r| matches!(r.pair, Some((_, true)))) {
        let label = large.pair.map(|p| p.0).unwrap_or_default();
        if let Some(small) = rows.iter().find(|r| r.pair == Some((label, false))) {
            out.push((label, small, large));
        }
    }
    out
}

/// Per-byte time growth from `small` to `large`: (time ratio) / (size ratio).
fn per_byte(small: f64, large: f64, small_size: usize, large_size: usize) -> (f64, f64) {
    let t = large / small;
    (t, t / (large_size as f64 / small_size as f64))
}

/// A short failure text for a table cell; the whole message goes in the notes.
fn failure_cell(notes: &mut Vec<String>, who: &str, file: &str, e: &str) -> String {
    notes.push(format!("{who} on {file}: {e}"));
    let short: String = e.chars().take(32).collect();
    let cut = if short.len() < e.len() { "…" } else { "" };
    format!("fails: {short}{cut} [{}]", notes.len())
}

/// The whole Markdown report.
pub fn markdown(rows: &[Row], peers: &[Peer], notes: &[String], method: &str) -> String {
    let mut s = String::new();
    let mut fails: Vec<String> = Vec::new();
    let names: Vec<&str> = PEER_CRATES.iter().map(|(n, _)| *n).collect();

    let _ = writeln!(
        s,
        "### Throughput (MB/s, MB = 10^6 bytes; higher is better)\n"
    );
    let _ = write!(
        s,
        "| file | size MB | our read | our write | our to_bytes |"
    );
    for n in &names {
        let _ = write!(s, " {n} |");
    }
    let _ = writeln!(
        s,
        " byte-sum | read ÷ fastest full peer | read ÷ fastest peer | read ÷ byte-sum | write ÷ read | to_bytes ÷ read |"
    );
    let _ = writeln!(
        s,
        "|---|---:|---:|---:|---:|{}---:|---:|---:|---:|---:|---:|",
        "---:|".repeat(names.len())
    );
    for r in rows {
        let read = match &r.read {
            Ok(_) => fmt_mbps(r.read_mbps()),
            Err(e) => failure_cell(&mut fails, "our read", &r.name, e),
        };
        let write = match &r.write {
            Ok(_) => fmt_mbps(r.write_mbps()),
            Err(e) if r.read.is_ok() => failure_cell(&mut fails, "our write", &r.name, e),
            Err(_) => "-".into(),
        };
        let to_bytes = match &r.to_bytes {
            Ok(_) => fmt_mbps(r.to_bytes_mbps()),
            Err(_) => "-".into(),
        };
        let _ = write!(
            s,
            "| {} | {:.2} | {read} | {write} | {to_bytes} |",
            r.name,
            r.size as f64 / 1e6
        );
        for (n, full, p) in &r.peers {
            let cell = match p {
                PeerResult::Ok { secs, .. } => {
                    let mark = if *full { "" } else { " (partial)" };
                    format!("{}{mark}", fmt_mbps(mbps(r.size, *secs)))
                }
                PeerResult::Fails(e) => failure_cell(&mut fails, n, &r.name, e),
                PeerResult::NotApplicable => "n/a".into(),
            };
            let _ = write!(s, " {cell} |");
        }
        let bs = mbps(r.size, r.byte_sum);
        let full = r.best_peer(true);
        let any = r.best_peer(false);
        let ratio = |b: Option<(&str, f64)>| match b {
            Some((n, v)) => format!("{} ({n})", fmt_x(r.read_mbps() / v)),
            None => "-".into(),
        };
        let _ = writeln!(
            s,
            " {} | {} | {} | {} | {} | {} |",
            fmt_mbps(bs),
            ratio(full),
            ratio(any),
            fmt_x(r.read_mbps() / bs),
            fmt_x(r.write_mbps() / r.read_mbps()),
            fmt_x(r.to_bytes_mbps() / r.read_mbps())
        );
    }

    let _ = writeln!(
        s,
        "\n### Heap (multiples of the file size: peak growth during one read / held by the parsed value)\n"
    );
    let _ = write!(s, "| file | size MB | our peak | our held |");
    for n in &names {
        let _ = write!(s, " {n} peak / held |");
    }
    let _ = writeln!(s, "\n|---|---:|---:|---:|{}", "---:|".repeat(names.len()));
    for r in rows {
        let (peak, held) = r.heap.map_or(("-".into(), "-".into()), |(p, h)| {
            (fmt_x(r.size_x(p)), fmt_x(r.size_x(h)))
        });
        let _ = write!(
            s,
            "| {} | {:.2} | {peak} | {held} |",
            r.name,
            r.size as f64 / 1e6
        );
        for (_, _, p) in &r.peers {
            let cell = match p {
                PeerResult::Ok { peak, held, .. } => {
                    format!("{} / {}", fmt_x(r.size_x(*peak)), fmt_x(r.size_x(*held)))
                }
                PeerResult::Fails(_) => "fails".into(),
                PeerResult::NotApplicable => "n/a".into(),
            };
            let _ = write!(s, " {cell} |");
        }
        let _ = writeln!(s);
    }

    let pairs = pairs(rows);
    if !pairs.is_empty() {
        let _ = writeln!(
            s,
            "\n### Scale (synthetic pairs; per byte = time ratio ÷ size ratio, target ≤ 1.10)\n"
        );
        let _ = writeln!(
            s,
            "| pair | size ratio | our read: time ratio | per byte | our write: time ratio | per byte | fastest full peer: time ratio | per byte |"
        );
        let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|");
        for (label, a, b) in &pairs {
            let cell = |x: Result<&f64, &String>, y: Result<&f64, &String>| match (x, y) {
                (Ok(x), Ok(y)) => {
                    let (t, p) = per_byte(*x, *y, a.size, b.size);
                    format!("{t:.2} | {p:.3}")
                }
                _ => "- | -".into(),
            };
            let peer = a.best_peer(true).and_then(|(n, _)| {
                let secs = |r: &Row| {
                    r.peers.iter().find_map(|(m, _, p)| match p {
                        PeerResult::Ok { secs, .. } if *m == n => Some(*secs),
                        _ => None,
                    })
                };
                Some((n, secs(a)?, secs(b)?))
            });
            let peer = match peer {
                Some((n, x, y)) => {
                    let (t, p) = per_byte(x, y, a.size, b.size);
                    format!("{t:.2} ({n}) | {p:.3}")
                }
                None => "- | -".into(),
            };
            let _ = writeln!(
                s,
                "| {label} | {:.2} | {} | {} | {peer} |",
                b.size as f64 / a.size as f64,
                cell(a.read.as_ref(), b.read.as_ref()),
                cell(a.write.as_ref(), b.write.as_ref()),
            );
        }
    }

    let _ = writeln!(s, "\n### Targets (issues 7 and 18)\n");
    for line in targets(rows, &pairs) {
        let _ = writeln!(s, "- {line}");
    }

    let _ = writeln!(s, "\n### Notes\n");
    let _ = writeln!(s, "- {method}");
    for (n, v) in PEER_CRATES {
        let reads: Vec<String> = peers
            .iter()
            .filter(|p| p.name == n)
            .map(|p| {
                let f = p.format.name().to_uppercase();
                let mut t = if p.skips.is_empty() {
                    format!("{f} (every section)")
                } else {
                    format!("{f} (skips {})", p.skips)
                };
                if !p.known.is_empty() {
                    let _ = write!(t, "; known fault: {}", p.known);
                }
                t
            })
            .collect();
        let _ = writeln!(s, "- {n} {v}: reads {}", reads.join("; "));
        for (_, note) in PEER_BUILD_NOTES.iter().filter(|(m, _)| *m == n) {
            let _ = writeln!(s, "  - {note}");
        }
    }
    let _ = writeln!(
        s,
        "- \"(partial)\": the peer skips sections of the format (above), so it is left out of \"fastest full peer\"."
    );
    for n in notes {
        let _ = writeln!(s, "- {n}");
    }
    for (i, f) in fails.iter().enumerate() {
        let _ = writeln!(s, "- [{}] {f}", i + 1);
    }
    s
}

/// One line per target: on how many inputs it holds, and the worst case.
fn targets(rows: &[Row], pairs: &[(&'static str, &Row, &Row)]) -> Vec<String> {
    fn line(what: &str, cases: Vec<(String, f64, bool)>, lower_is_better: bool) -> String {
        if cases.is_empty() {
            return format!("{what}: no input to judge");
        }
        let met = cases.iter().filter(|c| c.2).count();
        let worst = cases
            .iter()
            .max_by(|a, b| {
                let o = a.1.total_cmp(&b.1);
                if lower_is_better {
                    o
                } else {
                    o.reverse()
                }
            })
            .map(|c| format!("{} {:.2}", c.0, c.1))
            .unwrap_or_default();
        let verdict = if met == cases.len() { "MET" } else { "MISSED" };
        format!(
            "{what}: {verdict}, met on {met} of {} (worst: {worst})",
            cases.len()
        )
    }
    let ok: Vec<&Row> = rows.iter().filter(|r| r.read.is_ok()).collect();
    let mut out = Vec::new();
    out.push(line(
        "read ≥ 2x the fastest full peer",
        ok.iter()
            .filter_map(|r| {
                let (_, b) = r.best_peer(true)?;
                let x = r.read_mbps() / b;
                Some((r.name.clone(), x, x >= 2.0))
            })
            .collect(),
        false,
    ));
    out.push(line(
        "read ≥ 0.40x byte-sum",
        ok.iter()
            .map(|r| {
                let x = r.read_mbps() / mbps(r.size, r.byte_sum);
                (r.name.clone(), x, x >= 0.40)
            })
            .collect(),
        false,
    ));
    // Issue 18: PMX and PMD against their peers.
    let of = |f: Format| ok.iter().filter(move |r| r.format == f);
    out.push(line(
        "PMX read ≥ 2.5x the fastest full peer but pmx_parser (which has its own line)",
        of(Format::Pmx)
            .filter_map(|r| {
                let b = r
                    .peers
                    .iter()
                    .filter(|(n, full, _)| *full && *n != "pmx_parser")
                    .filter_map(|(n, _, _)| r.peer_mbps(n))
                    .max_by(f64::total_cmp)?;
                let x = r.read_mbps() / b;
                Some((r.name.clone(), x, x >= 2.5))
            })
            .collect(),
        false,
    ));
    out.push(line(
        "PMX read ≥ 0.45x byte-sum",
        of(Format::Pmx)
            .map(|r| {
                let x = r.read_mbps() / mbps(r.size, r.byte_sum);
                (r.name.clone(), x, x >= 0.45)
            })
            .collect(),
        false,
    ));
    out.push(line(
        "PMX read ≥ 2x pmx_parser (where it reads the file)",
        of(Format::Pmx)
            .filter_map(|r| {
                let x = r.read_mbps() / r.peer_mbps("pmx_parser")?;
                Some((r.name.clone(), x, x >= 2.0))
            })
            .collect(),
        false,
    ));
    out.push(line(
        "PMD read ≥ 2.5x mmd-anim-format",
        of(Format::Pmd)
            .filter_map(|r| {
                let x = r.read_mbps() / r.peer_mbps("mmd-anim-format")?;
                Some((r.name.clone(), x, x >= 2.5))
            })
            .collect(),
        false,
    ));
    out.push(line(
        "to_bytes (write as a user calls it) ≥ 1.00x read",
        ok.iter()
            .filter(|r| r.to_bytes.is_ok())
            .map(|r| {
                let x = r.to_bytes_mbps() / r.read_mbps();
                (r.name.clone(), x, x >= 1.0)
            })
            .collect(),
        false,
    ));
    out.push(line(
        "write ≥ 1.00x read",
        ok.iter()
            .filter(|r| r.write.is_ok())
            .map(|r| {
                let x = r.write_mbps() / r.read_mbps();
                (r.name.clone(), x, x >= 1.0)
            })
            .collect(),
        false,
    ));
    out.push(line(
        "parsed value held ≤ 1.5x file size",
        ok.iter()
            .filter_map(|r| {
                let (_, h) = r.heap?;
                let x = r.size_x(h);
                Some((r.name.clone(), x, x <= 1.5))
            })
            .collect(),
        true,
    ));
    out.push(line(
        "read peak ≤ 1.5x file size + 64 KiB",
        ok.iter()
            .filter_map(|r| {
                let (p, _) = r.heap?;
                Some((
                    r.name.clone(),
                    r.size_x(p),
                    p as f64 <= 1.5 * r.size as f64 + PEAK_SLACK as f64,
                ))
            })
            .collect(),
        true,
    ));
    out.push(line(
        "scale: per-byte read time ratio ≤ 1.10",
        pairs
            .iter()
            .filter_map(|(l, a, b)| {
                let (_, p) = per_byte(
                    *a.read.as_ref().ok()?,
                    *b.read.as_ref().ok()?,
                    a.size,
                    b.size,
                );
                Some((l.to_string(), p, p <= 1.10))
            })
            .collect(),
        true,
    ));
    out.push(line(
        "scale: per-byte write time ratio ≤ 1.10",
        pairs
            .iter()
            .filter_map(|(l, a, b)| {
                let (_, p) = per_byte(
                    *a.write.as_ref().ok()?,
                    *b.write.as_ref().ok()?,
                    a.size,
                    b.size,
                );
                Some((l.to_string(), p, p <= 1.10))
            })
            .collect(),
        true,
    ));
    out
}

/// The same results as JSON.
pub fn json(rows: &[Row], notes: &[String], method: &str) -> serde_json::Value {
    use serde_json::json;
    let rows: Vec<_> = rows
        .iter()
        .map(|r| {
            let peers: serde_json::Map<String, serde_json::Value> = r
                .peers
                .iter()
                .map(|(n, full, p)| {
                    let v = match p {
                        PeerResult::Ok { secs, peak, held } => json!({
                            "read_mb_s": mbps(r.size, *secs), "median_secs": secs,
                            "reads_every_section": full, "heap_peak_bytes": peak,
                            "heap_held_bytes": held,
                        }),
                        PeerResult::Fails(e) => json!({ "fails": e }),
                        PeerResult::NotApplicable => json!("n/a"),
                    };
                    (n.to_string(), v)
                })
                .collect();
            json!({
                "file": r.name, "format": r.format.name(), "size_bytes": r.size,
                "samples": r.samples,
                "read": match &r.read { Ok(s) => json!({"median_secs": s, "mb_s": mbps(r.size, *s)}), Err(e) => json!({"fails": e}) },
                "write": match &r.write { Ok(s) => json!({"median_secs": s, "mb_s": mbps(r.size, *s)}), Err(e) => json!({"fails": e}) },
                "to_bytes": match &r.to_bytes { Ok(s) => json!({"median_secs": s, "mb_s": mbps(r.size, *s)}), Err(e) => json!({"fails": e}) },
                "byte_sum": {"median_secs": r.byte_sum, "mb_s": mbps(r.size, r.byte_sum)},
                "heap_peak_bytes": r.heap.map(|h| h.0), "heap_held_bytes": r.heap.map(|h| h.1),
                "peers": peers,
            })
        })
        .collect();
    json!({ "method": method, "notes": notes, "rows": rows })
}
