//! Declared contexts in Kaitai terms: the instances a switch adds, and the scope that
//! later fields (and the types they use) read the context's members through.

use super::{entries, FieldEnv, Renderer};
use crate::expr::{self, Env};
use crate::yaml::{doc_entry, Y};
use mmd_formats::layout::{
    ContextLayout, ContextMember, ContextRole, ContextSwitch, Expr, FieldLayout, TypeLayout,
};
use std::rc::Rc;

/// The context in force at a point: the declared context, the type whose instances hold
/// its members, and each member's instance id.
#[derive(Clone, Default)]
pub(super) struct Scope {
    ctx: Option<Rc<Switched>>,
}

struct Switched {
    layout: &'static ContextLayout,
    owner: String,
    /// (member, instance id), in member order.
    ids: Vec<(&'static ContextMember, String)>,
}

impl Scope {
    pub(super) fn none() -> Self {
        Scope { ctx: None }
    }

    /// What makes two uses of a type render alike.
    pub(super) fn key(&self) -> String {
        match &self.ctx {
            None => "()".to_string(),
            Some(s) => format!("{} in {}", s.layout.name, s.owner),
        }
    }

    /// The type that holds the context's instances.
    pub(super) fn owner(&self) -> Option<&str> {
        self.ctx.as_ref().map(|s| s.owner.as_str())
    }

    /// The member named `name`: its instance id and description.
    pub(super) fn member(&self, name: &str) -> Option<(String, &'static ContextMember)> {
        let s = self.ctx.as_ref()?;
        s.ids
            .iter()
            .find(|(m, _)| m.name == name)
            .map(|(m, id)| (id.clone(), *m))
    }

    /// The member with `role`: its instance id and description.
    pub(super) fn role(&self, role: ContextRole) -> Option<(String, &'static ContextMember)> {
        let s = self.ctx.as_ref()?;
        s.ids
            .iter()
            .find(|(m, _)| m.role == Some(role))
            .map(|(m, id)| (id.clone(), *m))
    }

    /// The context's name, for messages.
    pub(super) fn name(&self) -> &str {
        self.ctx.as_ref().map_or("()", |s| s.layout.name)
    }
}

/// What a switch adds to the record: the switching field's `valid` expression, the
/// context's instances, and the scope after it.
pub(super) type SwitchForm = (Option<String>, Vec<(String, Y)>, Scope);

/// A parameter of a context: its name, and the switch's argument for it in Kaitai terms
/// with its flag type when the argument is a flag field, and what it holds when known.
type Arg = (
    &'static str,
    String,
    Option<&'static TypeLayout>,
    Option<expr::Ty>,
);

/// Expression environment for a member: its parameters are the switch's arguments,
/// already in Kaitai terms.
struct ParamEnv<'a> {
    args: Vec<Arg>,
    r: &'a Renderer,
}

impl Env for ParamEnv<'_> {
    fn field(&self, name: &str) -> Option<(String, Option<&'static TypeLayout>)> {
        let (_, text, flags, _) = self.args.iter().find(|(n, ..)| *n == name)?;
        Some((text.clone(), *flags))
    }
    fn name_ty(&self, name: &str) -> Option<expr::Ty> {
        self.args.iter().find(|(n, ..)| *n == name)?.3
    }
    fn ctx_member(&self, _: &str) -> Option<String> {
        None
    }
    fn flags_type(&self, name: &str) -> Option<&'static TypeLayout> {
        self.r.all.get(name).copied()
    }
}

impl Renderer {
    /// A switch to a declared context after field `name` of type `here` (`fields` are the
    /// fields up to it, `all` every field of the type, `taken` the instance ids earlier
    /// switches of the type gave): the `valid` expression for the switching field, the
    /// instances, and the scope after it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn switch(
        &mut self,
        here: &str,
        name: &str,
        fields: &'static [FieldLayout],
        sw: ContextSwitch,
        scope: &Scope,
        all: &'static [FieldLayout],
        taken: &[&str],
    ) -> Result<SwitchForm, String> {
        let layout = (sw.layout)();
        if sw.args.len() != layout.params.len() {
            return Err(format!(
                "`{}` takes {} argument(s), the switch gives {}",
                layout.name,
                layout.params.len(),
                sw.args.len()
            ));
        }
        // Arguments in Kaitai terms, once as the type's own fields and once with the
        // switching field as `_` (for its `valid` check).
        let translate_args = |alias: Option<(&str, &str)>| -> Result<Vec<Arg>, String> {
            let env = FieldEnv {
                r: self,
                earlier: fields,
                scope,
                here,
                alias,
            };
            layout
                .params
                .iter()
                .zip(sw.args)
                .map(|(p, a)| {
                    // A flag field passed as it is keeps its flag type, so that members
                    // may test its bits.
                    let plain = match a.tree {
                        Expr::Name(n) => env.field(n),
                        _ => None,
                    };
                    let ty = expr::ty_of(&env, a.tree);
                    match plain {
                        Some((text, Some(flags))) => Ok((p.name, text, Some(flags), ty)),
                        _ => Ok((p.name, expr::translate(&env, a)?, None, ty)),
                    }
                })
                .collect()
        };
        let args = translate_args(None)?;
        // The accepted values are checked on the switching field itself (as `_`), or, when
        // it is a sequence (Kaitai checks a repeated attribute per element), by an
        // attribute of no bytes after it that names the field.
        let checked = if super::repeated(fields.last()) {
            args.clone()
        } else {
            translate_args(Some((name, "_")))?
        };
        // Instance ids: the member names, all prefixed with the context's name when one of
        // them is also a field of this type or an instance of an earlier switch (then with
        // a number too, when that is taken as well).
        let clash = |prefix: &str| {
            layout.members.iter().any(|m| {
                let id = format!("{prefix}{}", m.name);
                all.iter().any(|f| f.name == id) || taken.contains(&id.as_str())
            })
        };
        let base = super::snake(layout.name);
        let prefix = std::iter::once(String::new())
            .chain(std::iter::once(format!("{base}_")))
            .chain((2..).map(|n| format!("{base}{n}_")))
            .find(|p| !clash(p))
            .unwrap_or_default();
        let mut instances = Vec::new();
        let mut ids = Vec::new();
        let mut valid = Vec::new();
        for m in layout.members {
            let id = format!("{prefix}{}", m.name);
            let value = expr::translate(
                &ParamEnv {
                    args: args.clone(),
                    r: self,
                },
                &m.from,
            )
            .map_err(|e| format!("member `{}` of `{}`: {e}", m.name, layout.name))?;
            let mut entry = entries(vec![("value", Y::s(value))]);
            entry.extend(doc_entry(&member_doc(layout, m)));
            instances.push((id.clone(), Y::Map(entry)));
            if let Some(list) = m.valid {
                let v = expr::translate(
                    &ParamEnv {
                        args: checked.clone(),
                        r: self,
                    },
                    &m.from,
                )
                .map_err(|e| format!("member `{}` of `{}`: {e}", m.name, layout.name))?;
                let v = super::paren(&v);
                let any: Vec<String> = list.iter().map(|x| format!("{v} == {x}")).collect();
                valid.push(if any.len() == 1 {
                    any[0].clone()
                } else {
                    format!("({})", any.join(" or "))
                });
            }
            ids.push((m, id));
        }
        let valid = (!valid.is_empty()).then(|| valid.join(" and "));
        let next = Scope {
            ctx: Some(Rc::new(Switched {
                layout,
                owner: here.to_string(),
                ids,
            })),
        };
        Ok((valid, instances, next))
    }
}

/// A member's doc in the grammar: its own doc, and the values it accepts.
fn member_doc(layout: &ContextLayout, m: &ContextMember) -> String {
    let mut d = format!(
        "Member `{}` of the context `{}`.\n\n{}",
        m.name,
        layout.name,
        m.doc.trim()
    );
    if let Some(v) = m.valid {
        d.push_str(&format!(
            "\n\nAccepted values: {} (any other is an error).",
            v.join(", ")
        ));
    }
    d
}
