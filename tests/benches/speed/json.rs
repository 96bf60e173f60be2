//! The JSON form's speed (issue 13), in the same run as the rest: for the largest PMX and
//! the largest VMD fixture (a synthetic file without the corpus), `dump` (the file read,
//! walked and printed as `mmd dump --json` prints it, through serde_json), `build` (the
//! JSON text parsed, built and written, as `mmd build` does) and serde_json's own parse of
//! the same text into a `serde_json::Value`. Throughput is MB/s of the binary file; the
//! last column is build's speed over that parse's (the target: at least 0.5).

use crate::{median, time_all, Args, Input, Runner};
use mmd_formats::inspect::Format;
use std::hint::black_box;

/// The inputs: the largest corpus file of each of PMX and VMD (else the smallest
/// synthetic one of the format).
fn pick(inputs: &[Input]) -> Vec<(&Input, Format)> {
    let mut out = Vec::new();
    for want in [Format::Pmx, Format::Vmd] {
        let of: Vec<&Input> = inputs
            .iter()
            .filter(|i| Format::detect(&i.bytes) == Some(want))
            .collect();
        let corpus = of
            .iter()
            .filter(|i| i.pair.is_none())
            .max_by_key(|i| i.bytes.len());
        let synth = of
            .iter()
            .filter(|i| i.pair.is_some())
            .min_by_key(|i| i.bytes.len());
        if let Some(i) = corpus.or(synth) {
            out.push((*i, want));
        }
    }
    out
}

/// The table (Markdown), or the reason a row could not be timed.
pub fn report(inputs: &[Input], args: &Args) -> String {
    let mut out = String::from(
        "\n## JSON both ways (`mmd dump --json`, `mmd build`)\n\n\
         MB/s of the binary file. dump: read, walk, print with serde_json; build: parse the \
         JSON, build the value, write the file; serde_json: its parse of the same JSON into a \
         `serde_json::Value`. build / serde_json is the ratio of their speeds (target \u{2265} \
         0.5).\n\n\
         | file | size | JSON | dump MB/s | build MB/s | serde_json MB/s | build / serde_json |\n\
         |---|---:|---:|---:|---:|---:|---:|\n",
    );
    for (input, format) in pick(inputs) {
        let bytes = &input.bytes[..];
        let text = match format.json_tree(bytes).map(|t| serde_json::to_string(&t)) {
            Ok(Ok(t)) => t,
            Ok(Err(e)) => {
                out.push_str(&format!("| {} | dump fails: {e} |\n", input.name));
                continue;
            }
            Err(e) => {
                out.push_str(&format!("| {} | does not read: {e} |\n", input.name));
                continue;
            }
        };
        match format.build(&text) {
            Ok(b) if b == bytes => {}
            Ok(_) => {
                out.push_str(&format!("| {} | build gives other bytes |\n", input.name));
                continue;
            }
            Err(e) => {
                out.push_str(&format!("| {} | build fails: {e} |\n", input.name));
                continue;
            }
        }
        let t = &text;
        let mut runners = vec![
            Runner {
                label: "dump".into(),
                run: Box::new(move || {
                    let tree = format.json_tree(black_box(bytes)).ok()?;
                    black_box(serde_json::to_vec(&tree).ok()?.len());
                    None
                }),
                samples: vec![],
            },
            Runner {
                label: "build".into(),
                run: Box::new(move || {
                    black_box(format.build(black_box(t)).ok()?.len());
                    None
                }),
                samples: vec![],
            },
            Runner {
                label: "serde_json".into(),
                run: Box::new(move || {
                    let v: serde_json::Value = serde_json::from_str(black_box(t)).ok()?;
                    black_box(&v);
                    None
                }),
                samples: vec![],
            },
        ];
        time_all(&mut runners, args);
        let mbs = |label: &str| {
            let r = runners.iter().find(|r| r.label == label).expect("runner");
            bytes.len() as f64 / median(&r.samples) / 1e6
        };
        let (dump, build, parse) = (mbs("dump"), mbs("build"), mbs("serde_json"));
        out.push_str(&format!(
            "| {} | {} | {} | {dump:.1} | {build:.1} | {parse:.1} | {:.2} |\n",
            input.name,
            bytes.len(),
            text.len(),
            build / parse
        ));
    }
    out
}
