//! The pipeline: parse -> check -> generate.

use crate::ast::{Container, Data};
use crate::ctxt::Ctxt;
use crate::paths::Paths;
use crate::{check, describe, from_json, read, walk, write};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::DeriveInput;

pub fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, input);
    let parent = cont.as_ref().is_some_and(|c| c.attrs.has("parent"));
    crate::tree::with_parent(parent, || derive_checked(cx, cont, input))
}

fn derive_checked(cx: Ctxt, cont: Option<Container>, input: &DeriveInput) -> TokenStream {
    let cont = cont.map(|mut c| {
        check::check(&cx, &mut c);
        c
    });
    let paths = |c: &Option<Container>| match c {
        Some(c) => Paths::new(c.attrs.ty("crate").map(|t| t.value.clone())),
        None => Paths::new(None),
    };
    match (cx.check(), cont) {
        (Ok(()), Some(cont)) => generate(&cont),
        (Err(errors), cont) => fallback(&paths(&cont), input, errors),
        (Ok(()), None) => fallback(&Paths::new(None), input, Vec::new()),
    }
}

/// Every value type a generic (context-free) impl must bound. Fields read through
/// `select` are left out of the decode bounds: they implement `DecodeSelected` for a
/// selector type the derive cannot name here, and the body proves that bound itself.
fn bounds(cont: &Container, trait_path: &TokenStream, for_decode: bool) -> Vec<TokenStream> {
    let mut out = Vec::new();
    let mut each = |fields: &crate::ast::Fields| {
        for f in &fields.fields {
            let Some(shape) = f.shape.as_ref() else {
                continue;
            };
            if (for_decode && shape.select.is_some()) || shape.gaps {
                continue;
            }
            let vt = &shape.value_ty;
            if shape.with_parent {
                // Read with this record's fields in view, for whatever lifetime they have.
                let Paths {
                    within, enclosing, ..
                } = &cont.paths;
                out.push(quote!(for<'__mmd_w> #vt: #trait_path<#within<'__mmd_w, __C, <Self as #enclosing>::Fields<'__mmd_w>>>));
                continue;
            }
            out.push(quote!(#vt: #trait_path<__C>));
        }
    };
    match &cont.data {
        Data::Struct(f) => each(f),
        Data::Enum(vs) => vs.iter().for_each(|v| each(&v.fields)),
    }
    if let Some(spec) = &cont.tag {
        if spec.read {
            let t = &spec.ty;
            out.push(quote!(#t: #trait_path<__C>));
        }
    }
    out
}

/// For a type that declares no context: one check per field, spanned on the field's type,
/// that the value type reads with the empty context `()` (what binrw's `Args = ()` needs).
/// A field that needs a context (an index, a `PmxText`) fails here, once, at its type, and
/// the trait's `on_unimplemented` note says to add `#[mmd(ctx = ...)]`.
fn context_free_checks(cont: &Container) -> TokenStream {
    let p = &cont.paths;
    let decode = p.decode.clone();
    let mut checks = Vec::new();
    let mut each = |fields: &crate::ast::Fields| {
        for f in &fields.fields {
            let Some(shape) = f.shape.as_ref() else {
                continue;
            };
            if shape.select.is_some() || shape.gaps || shape.with_parent {
                continue;
            }
            let vt = &shape.value_ty;
            let span = syn::spanned::Spanned::span(vt);
            checks.push(quote_spanned! {span=>
                const _: fn() = __mmd_no_ctx_declared::<#vt>;
            });
        }
    };
    match &cont.data {
        Data::Struct(f) => each(f),
        Data::Enum(vs) => vs.iter().for_each(|v| each(&v.fields)),
    }
    if checks.is_empty() {
        return quote!();
    }
    quote! {
        fn __mmd_no_ctx_declared<__T: #decode<()>>() {}
        #(#checks)*
    }
}

fn generate(cont: &Container) -> TokenStream {
    let p = &cont.paths;
    let sized = p.sized.clone();
    let ident = cont.ident;
    let Paths {
        decode,
        decode_selected,
        encode,
        selected,
        input,
        output,
        result,
        rt,
        binrw,
        ..
    } = p;

    let read_body = read::expand(cont);
    let write_body = write::expand(cont);
    let describe_impl = describe::expand(cont);
    let walk_impl = walk::expand(cont);
    let spec = cont.tag.as_ref();

    // Declared context: concrete impls. None: generic over every context the fields accept.
    // A type that names its parent is read with `Within` the context (see `nest.rs`).
    let child = cont.attrs.has("parent");
    let lt_p = quote!('__mmd_p);
    let (impl_generics, ctx_ty, dec_where, enc_where, json_where, args_inner) =
        match cont.attrs.ty("ctx") {
            Some(c) => {
                let c = c.value;
                (
                    if child { quote!(<#lt_p>) } else { quote!() },
                    crate::nest::ctx_type(cont, quote!(#c), lt_p.clone()),
                    quote!(),
                    quote!(),
                    quote!(),
                    quote!(#c),
                )
            }
            None => {
                let db = bounds(cont, decode, true);
                let eb = bounds(cont, encode, false);
                let jb = bounds(cont, &p.from_json, false);
                (
                    if child {
                        quote!(<#lt_p, __C: ?#sized>)
                    } else {
                        quote!(<__C: ?#sized>)
                    },
                    crate::nest::ctx_type(cont, quote!(__C), lt_p.clone()),
                    quote!(where #(#db,)*),
                    quote!(where #(#eb,)*),
                    quote!(where #(#jb,)*),
                    quote!(()),
                )
            }
        };
    // binrw's arguments: the context (with the parent's fields, for a lifetime of binrw's,
    // which its functions' bodies do not name: `_` there).
    let args_ty = crate::nest::ctx_type(cont, args_inner.clone(), quote!('__mmd_a));
    let args_in_fn = if child { quote!(_) } else { args_ty.clone() };
    let args_hr = crate::nest::ctx_type(cont, args_inner, quote!('__mmd_hr));
    let from_json_impl = from_json::expand(cont, &impl_generics, &ctx_ty, &json_where);
    let nest = crate::nest::declare(cont);

    // Without a declared context the binrw impls need the type to work with `()`. The
    // bound is written higher-ranked so that, when it does not hold, the impl is merely
    // unusable instead of a second and third error: `context_free_checks` reports it once.
    let no_ctx = !cont.attrs.has("ctx");
    let checks = if no_ctx {
        context_free_checks(cont)
    } else {
        quote!()
    };

    let read_where = |bound: TokenStream| {
        if no_ctx {
            quote!(where for<'__mmd_hr> #ident: #bound)
        } else {
            quote!()
        }
    };
    let write_where = read_where(quote!(#encode<#args_hr>));

    let selector_body = write::expand_selector(cont);
    let fixed_write_methods = crate::fixed_write::expand(cont, &ctx_ty);
    let size_methods = crate::size::expand(cont, &ctx_ty);
    let read_impl = if let Some(spec) = spec.filter(|s| !s.read) {
        let sel = &spec.ty;
        let read_where = read_where(quote!(#decode_selected<#args_hr, #sel>));
        quote! {
            #[automatically_derived]
            impl #impl_generics #decode_selected<#ctx_ty, #sel> for #ident #dec_where {
                #[allow(unused_variables, unused_braces, clippy::all)]
                fn decode_selected<__I: #input + ?#sized>(
                    __mmd_input: &mut __I,
                    ctx: &#ctx_ty,
                    __mmd_tag: #sel,
                ) -> #result<Self> {
                    #read_body
                }
            }
            #[automatically_derived]
            impl #selected<#sel> for #ident {
                fn selector(&self) -> #sel {
                    #selector_body
                }
            }
            #[automatically_derived]
            impl #binrw::BinRead for #ident #read_where {
                type Args<'__mmd_a> = (#args_ty, #sel);
                fn read_options<__R: #binrw::io::Read + #binrw::io::Seek>(
                    reader: &mut __R,
                    _endian: #binrw::Endian,
                    args: Self::Args<'_>,
                ) -> #binrw::BinResult<Self> {
                    #rt::binrw_read_selected::<Self, #args_in_fn, #sel, __R>(reader, &args.0, args.1)
                }
            }
        }
    } else {
        let read_where = read_where(quote!(#decode<#args_hr>));
        let fixed_methods = crate::fixed::methods(cont, &ctx_ty);
        quote! {
            #[automatically_derived]
            impl #impl_generics #decode<#ctx_ty> for #ident #dec_where {
                #[allow(unused_variables, unused_braces, clippy::all)]
                #[inline]
                fn decode<__I: #input + ?#sized>(
                    __mmd_input: &mut __I,
                    ctx: &#ctx_ty,
                ) -> #result<Self> {
                    #read_body
                }
                #fixed_methods
            }
            #[automatically_derived]
            impl #binrw::BinRead for #ident #read_where {
                type Args<'__mmd_a> = #args_ty;
                fn read_options<__R: #binrw::io::Read + #binrw::io::Seek>(
                    reader: &mut __R,
                    _endian: #binrw::Endian,
                    args: Self::Args<'_>,
                ) -> #binrw::BinResult<Self> {
                    #rt::binrw_read::<Self, #args_in_fn, __R>(reader, &args)
                }
            }
        }
    };

    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, non_shorthand_field_patterns, clippy::all)]
        const _: () = {
            #read_impl

            #[automatically_derived]
            impl #impl_generics #encode<#ctx_ty> for #ident #enc_where {
                #[allow(unused_variables, unused_mut, unused_braces, non_shorthand_field_patterns, clippy::all)]
                #[inline]
                fn encode<__O: #output + ?#sized>(
                    &self,
                    __mmd_out: &mut __O,
                    ctx: &#ctx_ty,
                ) -> #result<()> {
                    #write_body
                }
                #fixed_write_methods
                #size_methods
            }

            #[automatically_derived]
            impl #binrw::BinWrite for #ident #write_where {
                type Args<'__mmd_a> = #args_ty;
                fn write_options<__W: #binrw::io::Write + #binrw::io::Seek>(
                    &self,
                    writer: &mut __W,
                    _endian: #binrw::Endian,
                    args: Self::Args<'_>,
                ) -> #binrw::BinResult<()> {
                    #rt::binrw_write::<Self, #args_in_fn, __W>(self, writer, &args)
                }
            }

            #describe_impl

            #walk_impl

            #from_json_impl

            #checks

            #nest
        };
    }
}

/// On attribute errors: the errors, plus stub impls so that one mistake gives one error.
fn fallback(p: &Paths, input: &DeriveInput, errors: Vec<syn::Error>) -> TokenStream {
    let Paths {
        sized, unreachable, ..
    } = p;
    let ident = &input.ident;
    let errors = errors.into_iter().map(|e| e.to_compile_error());
    let Paths {
        decode,
        decode_selected,
        encode,
        selected,
        describe,
        ..
    } = p;
    let input_t = p.input.clone();
    let Paths {
        output,
        result,
        layout,
        walk,
        from_json,
        json_value,
        json_error,
        std_result,
        ..
    } = p;
    let is_enum = matches!(input.data, syn::Data::Enum(_));
    let enum_stubs = is_enum.then(|| {
        quote! {
            impl<__C: ?#sized, __S> #decode_selected<__C, __S> for #ident {
                fn decode_selected<__I: #input_t + ?#sized>(
                    _: &mut __I, _: &__C, _: __S,
                ) -> #result<Self> {
                    #unreachable
                }
            }
            impl<__S> #selected<__S> for #ident {
                fn selector(&self) -> __S {
                    #unreachable
                }
            }
        }
    });
    let stubs = input.generics.params.is_empty().then(|| {
        quote! {
            #[allow(unreachable_code, clippy::all)]
            const _: () = {
                impl<__C: ?#sized> #decode<__C> for #ident {
                    fn decode<__I: #input_t + ?#sized>(
                        _: &mut __I, _: &__C,
                    ) -> #result<Self> {
                        #unreachable
                    }
                }
                impl<__C: ?#sized> #encode<__C> for #ident {
                    fn encode<__O: #output + ?#sized>(
                        &self, _: &mut __O, _: &__C,
                    ) -> #result<()> {
                        #unreachable
                    }
                }
                impl #describe for #ident {
                    const SIZE: #layout::Size = #layout::Size::Variable;
                    const MIN_SIZE: u64 = 0;
                }
                impl #walk::Walk for #ident {
                    fn walk(&self, _: &mut dyn #walk::Visitor) {
                        #unreachable
                    }
                }
                impl<__C: ?#sized> #from_json<__C> for #ident {
                    fn from_json(
                        _: &#json_value<'_>, _: &__C,
                    ) -> #std_result<Self, #json_error> {
                        #unreachable
                    }
                }
                #enum_stubs
            };
        }
    });
    let enclosing = input
        .generics
        .params
        .is_empty()
        .then(|| crate::nest::none_passed(p, ident));
    quote! {
        #(#errors)*
        #stubs
        #enclosing
    }
}
