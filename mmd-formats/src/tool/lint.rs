//! `mmd lint [--json] [--deny CODE|warnings] [--allow CODE] [--model MODEL] FILE...`: what
//! would break in MMD, one line per finding, from the library's rules
//! ([`mmd_formats::lint`]).

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use mmd_formats::inspect::Format;
use mmd_formats::lint::{self, Finding, Model, Severity, RULES};
use mmd_formats::pmd::Pmd;
use mmd_formats::pmx::Pmx;
use mmd_formats::vmd::Vmd;
use mmd_formats::vpd::Vpd;
use serde_json::{json, Value};

use crate::tool::exit::{Exit, Outcome, Stop};
use crate::tool::input::{self, Problem};

/// The long description of `mmd lint`.
pub const LONG_ABOUT: &str = "\
Report what would break in MikuMikuDance: files that read, but that MMD would not load,
that a motion would not bind to, or that would not move as meant.

Each FILE's format is told by its first bytes. A model (PMX, PMD) is checked for
references out of range, its skeleton (parent cycles, deform order, inherits, IK), names a
VMD cannot hold, weights, faces, display frames, physics, and its texture paths (absolute,
or naming no file beside the model). A motion (VMD) or pose (VPD) is checked for keys that
collide, rotations that are not unit quaternions, interpolation beyond 127 and cameras
with no field of view; with --model also for tracks and IK switches that bind to nothing
and for bones it keys that physics drives.

One line per finding, `SEVERITY CODE path: message`, where SEVERITY is error, warning or
info, CODE a stable rule code (E001.., W001.., I001..) and path the field
(bones[41].name); text from the file is quoted and escaped. With several FILEs, each
file's findings follow a line naming it. A summary line ends the output. --json prints one
document instead: {\"files\": [{\"path\", \"format\", \"findings\": [{\"severity\", \"code\",
\"path\", \"message\", \"denied\"}], \"error\"}], \"model\", \"summary\": {\"files\", \"errors\",
\"warnings\", \"infos\", \"allowed\", \"unread\"}}.

--deny CODE makes that rule's findings errors (--deny warnings: every warning); --allow
CODE leaves that rule's findings out (counted as allowed). `mmd lint --rules` lists every
rule (--json: with its documentation: what, why, evidence, fix).";

/// Exit codes of `mmd lint`.
pub const EXIT_CODES: &str = "\
Exit codes:
  0  no error found (warnings and infos do not count unless denied)
  1  an error found (or a denied warning or info), or a FILE does not read as its format
  2  usage error (an unknown rule code), a FILE or the MODEL that cannot be read or is in
     no supported format, a MODEL that is not a model or does not read";

/// Arguments of `mmd lint`.
#[derive(Debug, clap::Args)]
pub struct LintArgs {
    /// Print one JSON document instead of the lines.
    #[arg(long)]
    pub json: bool,
    /// Count this rule's findings as errors; `warnings` for every warning. Repeatable.
    #[arg(long, value_name = "CODE|warnings")]
    pub deny: Vec<String>,
    /// Leave this rule's findings out. Repeatable.
    #[arg(long, value_name = "CODE")]
    pub allow: Vec<String>,
    /// The model (PMX or PMD) that the motions and poses among FILE are bound to.
    #[arg(long, value_name = "MODEL")]
    pub model: Option<PathBuf>,
    /// List every rule instead of checking files.
    #[arg(long, conflicts_with_all = ["deny", "allow", "model", "files"])]
    pub rules: bool,
    /// The files to check: models, motions, poses.
    #[arg(value_name = "FILE", required_unless_present = "rules")]
    pub files: Vec<PathBuf>,
}

/// Which findings are left out and which count as errors.
struct Policy {
    allow: HashSet<&'static str>,
    deny: HashSet<&'static str>,
    deny_warnings: bool,
}

impl Policy {
    fn new(args: &LintArgs) -> Outcome<Self> {
        let code = |c: &str| {
            lint::rule(c).map(|r| r.code).ok_or_else(|| {
                Stop::trouble(format!(
                    "unknown rule code {c:?} (`mmd lint --rules` lists them)"
                ))
            })
        };
        let mut deny = HashSet::new();
        let mut deny_warnings = false;
        for d in &args.deny {
            if d == "warnings" {
                deny_warnings = true;
            } else {
                deny.insert(code(d)?);
            }
        }
        let allow = args.allow.iter().map(|a| code(a)).collect::<Outcome<_>>()?;
        Ok(Policy {
            allow,
            deny,
            deny_warnings,
        })
    }

    fn allowed(&self, f: &Finding) -> bool {
        self.allow.contains(f.code())
    }

    fn denied(&self, f: &Finding) -> bool {
        f.severity() != Severity::Error
            && (self.deny.contains(f.code())
                || (self.deny_warnings && f.severity() == Severity::Warning))
    }

    /// The severity it is reported with.
    fn severity(&self, f: &Finding) -> Severity {
        if self.denied(f) {
            Severity::Error
        } else {
            f.severity()
        }
    }
}

/// One FILE's result.
struct Checked {
    path: PathBuf,
    format: Option<Format>,
    findings: Result<Vec<Finding>, Problem>,
}

/// A model read into memory.
enum Loaded {
    Pmx(Box<Pmx>),
    Pmd(Box<Pmd>),
}

impl Loaded {
    fn model(&self) -> Model<'_> {
        match self {
            Loaded::Pmx(m) => Model::Pmx(m),
            Loaded::Pmd(m) => Model::Pmd(m),
        }
    }
}

/// Reads a model; `None` when the file is not a model.
fn read_model(format: Format, bytes: &[u8]) -> Result<Option<Loaded>, Problem> {
    Ok(match format {
        Format::Pmx => Some(Loaded::Pmx(Box::new(input::decode(format, bytes)?))),
        Format::Pmd => Some(Loaded::Pmd(Box::new(input::decode(format, bytes)?))),
        _ => None,
    })
}

/// The folder a model's texture paths are relative to.
fn folder(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Checks one FILE.
fn check(path: &Path, model: Option<Model<'_>>) -> (Option<Format>, Result<Vec<Finding>, Problem>) {
    let bytes = match input::read(path) {
        Ok(b) => b,
        Err(p) => return (None, Err(p)),
    };
    let format = match input::detect(&bytes) {
        Ok(f) => f,
        Err(p) => return (None, Err(p)),
    };
    let found = (|| {
        if let Some(m) = read_model(format, &bytes)? {
            let mut found = lint::check_model(m.model());
            found.extend(lint::check_texture_files(m.model(), folder(path)));
            return Ok(found);
        }
        input::guarded(format, || {
            Ok(match format {
                Format::Vmd => lint::check_motion(&Vmd::from_bytes(&bytes)?, model),
                _ => lint::check_pose(&Vpd::from_bytes(&bytes)?, model),
            })
        })
    })();
    (Some(format), found)
}

/// Counts of the summary.
#[derive(Default)]
struct Summary {
    errors: usize,
    warnings: usize,
    infos: usize,
    allowed: usize,
    unread: usize,
    trouble: bool,
}

/// Runs `mmd lint`.
pub fn run(args: &LintArgs, out: &mut dyn Write) -> Outcome {
    if args.rules {
        return rules(args.json, out);
    }
    let policy = Policy::new(args)?;
    let model = match &args.model {
        Some(path) => Some(open_model(path)?),
        None => None,
    };
    let mut checked = Vec::with_capacity(args.files.len());
    let mut summary = Summary::default();
    for path in &args.files {
        let (format, findings) = check(path, model.as_ref().map(Loaded::model));
        let findings = findings.map(|all| {
            let (allowed, kept): (Vec<_>, Vec<_>) =
                all.into_iter().partition(|f| policy.allowed(f));
            summary.allowed += allowed.len();
            kept
        });
        checked.push(Checked {
            path: path.clone(),
            format,
            findings,
        });
    }
    for c in &checked {
        if let Ok(found) = &c.findings {
            for f in found {
                match policy.severity(f) {
                    Severity::Error => summary.errors += 1,
                    Severity::Warning => summary.warnings += 1,
                    Severity::Info => summary.infos += 1,
                }
            }
        }
    }
    for c in &checked {
        if let Err(p) = &c.findings {
            summary.unread += 1;
            summary.trouble |= p.exit() == Exit::Trouble;
        }
    }
    let report = Report {
        args,
        policy: &policy,
        checked: &checked,
        summary: &summary,
    };
    if args.json {
        report.write_json(out)?;
    } else {
        report.write_text(out)?;
    }
    let exit = if summary.trouble {
        Exit::Trouble
    } else if summary.errors > 0 || summary.unread > 0 {
        Exit::Failed
    } else {
        Exit::Done
    };
    Ok(exit)
}

/// Reads `--model`: any problem is trouble (the motions cannot be checked as asked).
fn open_model(path: &Path) -> Outcome<Loaded> {
    let shown = path.display().to_string();
    let trouble = |p: Problem| Stop::trouble(p.message(&shown));
    let bytes = input::read(path).map_err(trouble)?;
    let format = input::detect(&bytes).map_err(trouble)?;
    read_model(format, &bytes).map_err(trouble)?.ok_or_else(|| {
        Stop::trouble(format!(
            "{shown}: a {format} file, not a model (PMX or PMD)"
        ))
    })
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What a run found, to print.
struct Report<'a> {
    args: &'a LintArgs,
    policy: &'a Policy,
    checked: &'a [Checked],
    summary: &'a Summary,
}

impl Report<'_> {
    fn write_text(&self, out: &mut dyn Write) -> Outcome<()> {
        let (args, policy, checked, summary) = (self.args, self.policy, self.checked, self.summary);
        let several = checked.len() > 1;
        for c in checked.iter() {
            let shown = c.path.display();
            match &c.findings {
                Ok(found) => {
                    if several && !found.is_empty() {
                        let format = c.format.map_or("?", |f| f.name());
                        writeln!(out, "{} ({format}):", crate::tool::shown::path(&c.path))?;
                    }
                    for f in found {
                        writeln!(
                            out,
                            "{} {} {}: {}",
                            policy.severity(f),
                            f.code(),
                            f.path,
                            f.message
                        )?;
                    }
                }
                Err(p) => writeln!(
                    out,
                    "{}",
                    crate::tool::shown::line(&p.message(&shown.to_string()))
                )?,
            }
        }
        let mut line = format!(
            "{}: {}, {}, {}",
            plural(checked.len(), "file", "files"),
            plural(summary.errors, "error", "errors"),
            plural(summary.warnings, "warning", "warnings"),
            plural(summary.infos, "info", "infos"),
        );
        if summary.allowed > 0 {
            line.push_str(&format!(", {} allowed", summary.allowed));
        }
        if summary.unread > 0 {
            line.push_str(&format!(", {} not checked", summary.unread));
        }
        if let Some(m) = &args.model {
            line.push_str(&format!(" (bound to {})", m.display()));
        }
        writeln!(out, "{line}")?;
        Ok(())
    }

    fn write_json(&self, out: &mut dyn Write) -> Outcome<()> {
        let (args, policy, checked, summary) = (self.args, self.policy, self.checked, self.summary);
        let files: Vec<Value> = checked
            .iter()
            .map(|c| {
                let shown = c.path.display().to_string();
                let (findings, error) = match &c.findings {
                    Ok(found) => (
                        found
                            .iter()
                            .map(|f| {
                                json!({
                                    "severity": policy.severity(f).name(),
                                    "code": f.code(),
                                    "path": f.path,
                                    "message": f.message,
                                    "denied": policy.denied(f),
                                })
                            })
                            .collect(),
                        Value::Null,
                    ),
                    Err(p) => (Vec::new(), json!(p.message(&shown))),
                };
                json!({
                    "path": shown,
                    "format": c.format.map(|f| f.name()),
                    "findings": findings,
                    "error": error,
                })
            })
            .collect();
        let doc = json!({
            "files": files,
            "model": args.model.as_ref().map(|m| m.display().to_string()),
            "summary": {
                "files": checked.len(),
                "errors": summary.errors,
                "warnings": summary.warnings,
                "infos": summary.infos,
                "allowed": summary.allowed,
                "unread": summary.unread,
            },
        });
        writeln!(out, "{doc}")?;
        Ok(())
    }
}

/// `mmd lint --rules`: one line per rule, or (--json) every rule with its documentation.
fn rules(as_json: bool, out: &mut dyn Write) -> Outcome {
    if as_json {
        let list: Vec<Value> = RULES
            .iter()
            .map(|r| {
                json!({
                    "code": r.code,
                    "severity": r.severity.name(),
                    "topic": r.topic.name(),
                    "applies": r.applies,
                    "title": r.title,
                    "what": r.what,
                    "why": r.why,
                    "evidence": r.evidence,
                    "fix": r.fix,
                })
            })
            .collect();
        writeln!(out, "{}", Value::Array(list))?;
    } else {
        for r in RULES {
            writeln!(
                out,
                "{} {:<7} {}: {}",
                r.code,
                r.severity.name(),
                r.topic.name(),
                r.title
            )?;
        }
    }
    Ok(Exit::Done)
}
