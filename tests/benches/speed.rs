//! Speed and memory of our reader and writer beside the peer crates, in one run.
//!
//! ```text
//! cargo bench -p mmd-tests --bench speed                 # the full table
//! cargo bench -p mmd-tests --bench speed -- --quick      # one iteration each (CI smoke)
//! cargo bench -p mmd-tests --bench speed -- --json       # machine-readable
//! cargo bench -p mmd-tests --bench speed -- gene synth-vmd   # only inputs whose name has one of these
//! cargo bench -p mmd-tests --bench speed -- --profile-read FILE [--iterations N]
//! ```
//!
//! Inputs: the two largest files of each of `pmx`, `pmd` and `vmd` in the fixture corpus
//! (when present) and synthetic files built in code (`mmd_tests::synth`) in pairs whose
//! second member is 10x the first, for the scale target. Every file is in memory before
//! timing starts. For each input every reader is validated once (a peer that returns an
//! error or panics is reported as failing, with its message, and not timed), then timed in
//! interleaved rounds after a warm-up; a figure is the median of all samples. One sample
//! is one call; the parsed value is dropped outside the timed region. Our write is
//! `Encode::encode` into a vector whose capacity was reserved beforehand (reused, cleared
//! before each call); "to_bytes" is the write as a user calls it (`Pmx::to_bytes`, a new
//! vector each call, reserved from the value's size hint). The byte-sum baseline adds every byte of the file as a `u64`.
//!
//! Memory: a counting global allocator (switched on only around the measured call) gives
//! the peak heap growth during one read and the heap the parsed value holds after it,
//! each as a multiple of the file size.

#[path = "speed/json.rs"]
mod json;
#[path = "speed/peers.rs"]
mod peers;
#[path = "speed/report.rs"]
mod report;

use peers::{Format, Parsed, Peer, PEER_CRATES};
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------- counting allocator

struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

fn grow(n: isize) {
    let now = LIVE.fetch_add(n, Relaxed) + n;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every call is forwarded to `System` unchanged; the counters are only updated.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = System.alloc(l);
        if !p.is_null() && COUNTING.load(Relaxed) {
            grow(l.size() as isize);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(l);
        if !p.is_null() && COUNTING.load(Relaxed) {
            grow(l.size() as isize);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l);
        if COUNTING.load(Relaxed) {
            LIVE.fetch_sub(l.size() as isize, Relaxed);
        }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = System.realloc(p, l, new);
        if !q.is_null() && COUNTING.load(Relaxed) {
            grow(new as isize - l.size() as isize);
        }
        q
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Peak heap growth during `f` and the heap its result holds, in bytes. The result is
/// dropped while counting, so the counters return to where they were.
fn heap_of(f: &mut dyn FnMut() -> Option<Parsed>) -> (usize, usize) {
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    COUNTING.store(true, Relaxed);
    let v = f();
    let held = LIVE.load(Relaxed) - before;
    let peak = PEAK.load(Relaxed) - before;
    drop(v);
    COUNTING.store(false, Relaxed);
    (peak.max(0) as usize, held.max(0) as usize)
}

// ---------------------------------------------------------------- arguments

struct Args {
    quick: bool,
    json: bool,
    filters: Vec<String>,
    rounds: usize,
    round_ms: u64,
    profile_read: Option<PathBuf>,
    profile_write: Option<PathBuf>,
    iterations: usize,
    clock: Clock,
    default_heap: bool,
}

const HELP: &str = "\
speed: read/write MB/s and heap of mmd-formats beside the peer crates.

usage: cargo bench -p mmd-tests --bench speed -- [OPTIONS] [FILTER...]

  FILTER             keep only inputs whose name contains one of these
  --quick            one untimed-warm-up-free iteration per reader (CI smoke)
  --json             print the results as JSON instead of tables
  --rounds N         interleaved timing rounds (default 7)
  --round-ms MS      minimum time per reader per round (default 80)
  --wall             time with the wall clock (default: this thread's CPU time, which
                     leaves out time the thread waited for a core on a busy machine)
  --default-heap     leave glibc's malloc as it is (default: every allocation from the
                     heap, freed memory kept, so no call pays fresh page faults; see below)
  --profile-read F   only read F with our reader, --iterations times (for callgrind/perf);
                     F is a file or the name of an input (e.g. synth-vmd-500k-bone-keys)
  --profile-write F  read F once, then only write it, --iterations times
  --iterations N     for --profile-*: how many calls (default 1)
";

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        quick: false,
        json: false,
        filters: vec![],
        rounds: 7,
        round_ms: 80,
        profile_read: None,
        profile_write: None,
        iterations: 1,
        clock: Clock::ThreadCpu,
        default_heap: false,
    };
    let mut it = std::env::args().skip(1);
    let num = |v: Option<String>, what: &str| -> Result<u64, String> {
        v.as_deref()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("{what} needs a number"))
    };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            // cargo bench passes --bench to harness = false targets.
            "--bench" => {}
            "--quick" => a.quick = true,
            "--json" => a.json = true,
            "--wall" => a.clock = Clock::Wall,
            "--default-heap" => a.default_heap = true,
            "--rounds" => a.rounds = num(it.next(), "--rounds")?.max(1) as usize,
            "--round-ms" => a.round_ms = num(it.next(), "--round-ms")?,
            "--iterations" => a.iterations = num(it.next(), "--iterations")?.max(1) as usize,
            "--profile-read" => a.profile_read = it.next().map(PathBuf::from),
            "--profile-write" => a.profile_write = it.next().map(PathBuf::from),
            "-h" | "--help" => {
                print!("{HELP}");
                std::process::exit(0);
            }
            s if s.starts_with('-') => return Err(format!("unknown option {s}\n\n{HELP}")),
            s => a.filters.push(s.to_string()),
        }
    }
    Ok(a)
}

// ---------------------------------------------------------------- inputs

struct Input {
    name: String,
    format: Format,
    bytes: Vec<u8>,
    /// For synthetic pairs: the pair's label and whether this is the large member.
    pair: Option<(&'static str, bool)>,
}

fn format_of(path: &Path) -> Option<Format> {
    let ext = path.extension()?.to_string_lossy().to_ascii_lowercase();
    match ext.as_str() {
        "pmx" => Some(Format::Pmx),
        "pmd" => Some(Format::Pmd),
        "vmd" => Some(Format::Vmd),
        _ => None,
    }
}

/// A synthetic input: name, format, scale pair (label, large member?), builder, size.
type SynthSpec = (
    &'static str,
    Format,
    Option<(&'static str, bool)>,
    fn(usize) -> Vec<u8>,
    usize,
);

const PMX_PAIR: &str = "PMX 40k -> 400k vertices";
const PMD_PAIR: &str = "PMD 6.5k -> 65k vertices";
const VMD_PAIR: &str = "VMD 50k -> 500k bone keys";

/// The synthetic inputs, in table order; each pair's second member is 10x its first.
const SYNTH: [SynthSpec; 7] = [
    (
        "synth-pmx-40k-no-material-morphs",
        Format::Pmx,
        None,
        mmd_tests::synth::pmx_without_material_morphs,
        40_000,
    ),
    (
        "synth-pmx-40k-vertices",
        Format::Pmx,
        Some((PMX_PAIR, false)),
        mmd_tests::synth::pmx,
        40_000,
    ),
    (
        "synth-pmx-400k-vertices",
        Format::Pmx,
        Some((PMX_PAIR, true)),
        mmd_tests::synth::pmx,
        400_000,
    ),
    (
        "synth-pmd-6.5k-vertices",
        Format::Pmd,
        Some((PMD_PAIR, false)),
        mmd_tests::synth::pmd,
        6_500,
    ),
    (
        "synth-pmd-65k-vertices",
        Format::Pmd,
        Some((PMD_PAIR, true)),
        mmd_tests::synth::pmd,
        65_000,
    ),
    (
        "synth-vmd-50k-bone-keys",
        Format::Vmd,
        Some((VMD_PAIR, false)),
        mmd_tests::synth::vmd,
        50_000,
    ),
    (
        "synth-vmd-500k-bone-keys",
        Format::Vmd,
        Some((VMD_PAIR, true)),
        mmd_tests::synth::vmd,
        500_000,
    ),
];

/// Every input whose name `keep` accepts: the two largest fixtures of each format, then
/// the synthetic files (built only when kept).
fn inputs(notes: &mut Vec<String>, keep: &dyn Fn(&str) -> bool) -> Vec<Input> {
    let mut out = Vec::new();
    match mmd_tests::corpus_dir() {
        Some(dir) => {
            for f in [Format::Pmx, Format::Pmd, Format::Vmd] {
                let mut files: Vec<(u64, PathBuf)> = std::fs::read_dir(dir.join(f.name()))
                    .into_iter()
                    .flatten()
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| format_of(p) == Some(f))
                    .filter_map(|p| Some((std::fs::metadata(&p).ok()?.len(), p)))
                    .collect();
                files.sort_by_key(|f| std::cmp::Reverse(f.0));
                for (_, p) in files.into_iter().take(2) {
                    let name = format!(
                        "{}/{}",
                        f.name(),
                        p.file_name().unwrap_or_default().to_string_lossy()
                    );
                    if !keep(&name) {
                        continue;
                    }
                    match std::fs::read(&p) {
                        Ok(bytes) => out.push(Input {
                            name,
                            format: f,
                            bytes,
                            pair: None,
                        }),
                        Err(e) => notes.push(format!("cannot read {}: {e}", p.display())),
                    }
                }
            }
        }
        None => notes.push("no fixture corpus: synthetic files only".into()),
    }
    for (name, format, pair, build, n) in SYNTH {
        if keep(name) {
            out.push(Input {
                name: name.to_string(),
                format,
                bytes: build(n),
                pair,
            });
        }
    }
    out
}

// ---------------------------------------------------------------- timing

/// One timed thing: a closure that does the work and returns what it built (dropped
/// after the clock stops).
struct Runner<'a> {
    label: String,
    run: Box<dyn FnMut() -> Option<Parsed> + 'a>,
    samples: Vec<f64>,
}

/// Which clock a sample is taken with.
#[derive(Clone, Copy, PartialEq)]
enum Clock {
    /// This thread's CPU time (user + system, page faults included): time the thread was
    /// descheduled by other load on the machine is left out.
    ThreadCpu,
    /// Wall-clock time.
    Wall,
}

/// Seconds on `clock` from an arbitrary origin.
fn now(clock: Clock) -> f64 {
    #[cfg(target_os = "linux")]
    if clock == Clock::ThreadCpu {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9;
        }
    }
    let _ = clock;
    thread_local!(static ORIGIN: Instant = Instant::now());
    ORIGIN.with(|o| o.elapsed().as_secs_f64())
}

fn sample(r: &mut Runner, clock: Clock) -> f64 {
    let t = now(clock);
    let v = black_box((r.run)());
    let s = now(clock) - t;
    drop(v);
    s
}

fn time_all(runners: &mut [Runner], args: &Args) {
    if args.quick {
        for r in runners.iter_mut() {
            let s = sample(r, args.clock);
            r.samples.push(s);
        }
        return;
    }
    let round = Duration::from_millis(args.round_ms);
    // Warm-up: at least two calls and a third of a round each.
    for r in runners.iter_mut() {
        let t = Instant::now();
        let mut n = 0;
        while n < 2 || t.elapsed() < round / 3 {
            sample(r, args.clock);
            n += 1;
        }
    }
    for _ in 0..args.rounds {
        for r in runners.iter_mut() {
            let t = Instant::now();
            let mut n = 0;
            while n < 2 || t.elapsed() < round {
                let s = sample(r, args.clock);
                r.samples.push(s);
                n += 1;
            }
        }
    }
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

fn byte_sum(b: &[u8]) -> u64 {
    b.iter().map(|&x| u64::from(x)).sum()
}

// ---------------------------------------------------------------- running one input

/// What happened to one peer on one file.
enum PeerResult {
    /// Read; median seconds; heap peak and held.
    Ok { secs: f64, peak: usize, held: usize },
    /// Returned an error or panicked.
    Fails(String),
    /// Does not read this format.
    NotApplicable,
}

struct Row {
    name: String,
    format: Format,
    size: usize,
    pair: Option<(&'static str, bool)>,
    /// Our read: median seconds, or the error.
    read: Result<f64, String>,
    write: Result<f64, String>,
    /// Our write as a user calls it (`to_bytes`: a fresh vector each call, reserved by
    /// the writer's own size hint).
    to_bytes: Result<f64, String>,
    /// Heap peak during our read, heap held by our value.
    heap: Option<(usize, usize)>,
    peers: Vec<(&'static str, bool, PeerResult)>,
    byte_sum: f64,
    samples: usize,
}

/// Calls `f`, catching a panic; a panic becomes `Err("panicked: message")`.
fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = catch_unwind(AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    match r {
        Ok(r) => r,
        Err(p) => Err(format!(
            "panicked: {}",
            p.downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| p.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)")
        )),
    }
}

fn run_input(input: &Input, peers: &[Peer], args: &Args) -> Row {
    let bytes = &input.bytes[..];
    let f = input.format;
    let mut row = Row {
        name: input.name.clone(),
        format: f,
        size: bytes.len(),
        pair: input.pair,
        read: Err(String::new()),
        write: Err(String::new()),
        to_bytes: Err(String::new()),
        heap: None,
        peers: vec![],
        byte_sum: f64::NAN,
        samples: 0,
    };

    // Validate ours: read, write back, compare.
    let ours = guarded(|| peers::ours_read(f, bytes));
    let mut write_ok = Err("not read".to_string());
    if let Ok(v) = &ours {
        let mut out = Vec::with_capacity(bytes.len());
        write_ok = match guarded(|| peers::ours_write(f, v.as_ref(), &mut out)) {
            Ok(()) if out == bytes => Ok(()),
            Ok(()) => Err(format!(
                "write differs from the input ({} bytes written)",
                out.len()
            )),
            Err(e) => Err(e),
        };
    }
    // Validate peers.
    let mut ok_peers = Vec::new();
    for (name, _) in PEER_CRATES {
        match peers.iter().find(|p| p.name == name && p.format == f) {
            None => row.peers.push((name, true, PeerResult::NotApplicable)),
            Some(p) => match guarded(|| (p.read)(bytes)) {
                Ok(_) => ok_peers.push(p),
                Err(e) => row
                    .peers
                    .push((name, p.skips.is_empty(), PeerResult::Fails(e))),
            },
        }
    }

    // Time.
    let ours_value = ours.as_ref().ok();
    let mut runners: Vec<Runner> = Vec::new();
    if ours_value.is_some() {
        runners.push(Runner {
            label: "read".into(),
            run: Box::new(move || peers::ours_read(f, black_box(bytes)).ok()),
            samples: vec![],
        });
    }
    if let (Some(v), Ok(())) = (ours_value, &write_ok) {
        let mut out = Vec::with_capacity(bytes.len());
        runners.push(Runner {
            label: "write".into(),
            run: Box::new(move || {
                out.clear();
                let _ = peers::ours_write(f, v.as_ref(), &mut out);
                black_box(out.len());
                None
            }),
            samples: vec![],
        });
        runners.push(Runner {
            label: "to_bytes".into(),
            run: Box::new(move || {
                black_box(peers::ours_to_bytes(f, v.as_ref()).map(|b| b.len()).ok());
                None
            }),
            samples: vec![],
        });
    }
    for p in &ok_peers {
        let read = p.read;
        runners.push(Runner {
            label: p.name.into(),
            run: Box::new(move || read(black_box(bytes)).ok()),
            samples: vec![],
        });
    }
    runners.push(Runner {
        label: "byte-sum".into(),
        run: Box::new(move || {
            black_box(byte_sum(black_box(bytes)));
            None
        }),
        samples: vec![],
    });
    time_all(&mut runners, args);
    let medians: Vec<(String, f64)> = runners
        .iter()
        .map(|r| (r.label.clone(), median(&r.samples)))
        .collect();
    row.samples = runners.first().map_or(0, |r| r.samples.len());
    drop(runners);
    let med = |label: &str| {
        medians
            .iter()
            .find(|(l, _)| l == label)
            .map_or(f64::NAN, |(_, m)| *m)
    };
    row.byte_sum = med("byte-sum");
    row.read = match &ours {
        Ok(_) => Ok(med("read")),
        Err(e) => Err(e.clone()),
    };
    row.to_bytes = match &write_ok {
        Ok(()) => Ok(med("to_bytes")),
        Err(e) => Err(e.clone()),
    };
    row.write = match write_ok {
        Ok(()) => Ok(med("write")),
        Err(e) => Err(e),
    };
    drop(ours);

    // Memory, one call each.
    if row.read.is_ok() {
        row.heap = Some(heap_of(&mut || peers::ours_read(f, bytes).ok()));
    }
    for p in ok_peers {
        let secs = med(p.name);
        let (peak, held) = heap_of(&mut || (p.read)(bytes).ok());
        row.peers.push((
            p.name,
            p.skips.is_empty(),
            PeerResult::Ok { secs, peak, held },
        ));
    }
    row.peers.sort_by_key(|(n, _, _)| {
        PEER_CRATES
            .iter()
            .position(|(c, _)| c == n)
            .unwrap_or(usize::MAX)
    });
    row
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if !args.default_heap {
        steady_heap();
    }
    if let Some(p) = args.profile_read.clone().or(args.profile_write.clone()) {
        std::process::exit(profile(&p, args.profile_write.is_some(), args.iterations));
    }
    let mut notes = Vec::new();
    let keep = |name: &str| {
        args.filters.is_empty() || args.filters.iter().any(|f| name.contains(f.as_str()))
    };
    let all = inputs(&mut notes, &keep);
    let peers = peers::peers();
    let mut rows = Vec::new();
    for input in &all {
        eprintln!("timing {} ({} bytes)", input.name, input.bytes.len());
        rows.push(run_input(input, &peers, &args));
    }
    let method = method(&args);
    if args.json {
        let v = report::json(&rows, &notes, &method);
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        print!("{}", report::markdown(&rows, &peers, &notes, &method));
    }
    // The JSON form both ways (issue 13), on the largest PMX and VMD.
    print!("{}", json::report(&all, &args));
}

/// Tells glibc to serve every allocation from its heap and never give freed memory back.
///
/// By default glibc maps each allocation above its mmap threshold (which adapts up to 32
/// MB) afresh and unmaps it on free, so a reader whose largest vector passes 32 MB pays a
/// page fault per 4 KiB of it on every call, while a smaller file's calls reuse warm
/// memory: the 10x synthetic files then look superlinear for the allocator's sake, not
/// the reader's. With this, every size is measured the same way (steady state).
fn steady_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes malloc's tuning; called before any timing.
    unsafe {
        libc::mallopt(libc::M_MMAP_MAX, 0);
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
    }
}

/// How the figures were taken, and on what.
fn method(args: &Args) -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let rustc = std::process::Command::new(std::env::var("RUSTC").unwrap_or("rustc".into()))
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "rustc (unknown version)".into());
    let timing = if args.quick {
        "--quick: ONE call per reader, no warm-up: a smoke run, the figures are not medians"
            .to_string()
    } else {
        format!(
            "medians of in-process calls on a file already in memory, after a warm-up, over {} interleaved rounds of at least {} ms per reader, timed with {}",
            args.rounds,
            args.round_ms,
            match args.clock {
                Clock::ThreadCpu => "the thread's CPU-time clock (CLOCK_THREAD_CPUTIME_ID: user + system time, so page faults count and time spent waiting for a core does not)",
                Clock::Wall => "the wall clock",
            }
        )
    };
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .map_or(String::new(), |l| {
            format!("; 1-minute load average at the end: {l}")
        });
    let heap = if args.default_heap {
        "glibc malloc as configured by default (allocations above its adaptive mmap threshold, at most 32 MB, are mapped afresh on every call)"
    } else {
        "glibc malloc set to serve every allocation from its heap and keep freed memory (mallopt M_MMAP_MAX=0, M_TRIM_THRESHOLD=max), so repeated calls reuse warm memory at every file size (--default-heap to leave it as it is)"
    };
    format!("{timing}; {heap}; {cpu}, {cores} cores{load}; {rustc}; bench profile (release)")
}

/// Reads (or writes) one input with our reader only, `iterations` times: a file path, or
/// the name of one of the bench's inputs (`synth-vmd-500k-bone-keys`, `pmx/gene.pmx`).
fn profile(path: &Path, write: bool, iterations: usize) -> i32 {
    let (f, bytes) = if path.is_file() {
        let Some(f) = format_of(path) else {
            eprintln!("{}: not a .pmx, .pmd or .vmd file", path.display());
            return 2;
        };
        match std::fs::read(path) {
            Ok(b) => (f, b),
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                return 2;
            }
        }
    } else {
        let name = path.to_string_lossy();
        match inputs(&mut Vec::new(), &|n| n == name).into_iter().next() {
            Some(i) => (i.format, i.bytes),
            None => {
                eprintln!("{name}: no such file, and no bench input of that name");
                return 2;
            }
        }
    };
    let t = Instant::now();
    if write {
        let v = match peers::ours_read(f, &bytes) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                return 1;
            }
        };
        let mut out = Vec::with_capacity(bytes.len());
        let t = Instant::now();
        for _ in 0..iterations {
            out.clear();
            if let Err(e) = peers::ours_write(f, v.as_ref(), &mut out) {
                eprintln!("write: {e}");
                return 1;
            }
            black_box(out.len());
        }
        report_profile(path, bytes.len(), iterations, t.elapsed());
        return 0;
    }
    for _ in 0..iterations {
        match peers::ours_read(f, black_box(&bytes)) {
            Ok(v) => drop(black_box(v)),
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                return 1;
            }
        }
    }
    report_profile(path, bytes.len(), iterations, t.elapsed());
    0
}

fn report_profile(path: &Path, size: usize, n: usize, d: Duration) {
    let per = d.as_secs_f64() / n as f64;
    println!(
        "{}: {n} call(s), {:.3} ms each, {:.0} MB/s",
        path.display(),
        per * 1e3,
        size as f64 / per / 1e6
    );
}
