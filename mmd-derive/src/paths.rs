//! Every path the generated code names, in one table. Generated code names nothing
//! implicitly: it is tested under `#![no_implicit_prelude]`.
//!
//! The runtime crate is `::mmd_formats` unless the item says otherwise with
//! `#[mmd(crate = path)]` (for a crate that renames its dependency or re-exports it).

use proc_macro2::TokenStream;
use quote::quote;

macro_rules! paths {
    (
        runtime { $($name:ident => $($seg:ident)::+;)* }
        core { $($cname:ident => $ctoks:tt;)* }
    ) => {
        /// The paths of one derive invocation: the runtime's (below its `__private`
        /// module) and the standard library's.
        pub struct Paths {
            $(pub $name: TokenStream,)*
            $(pub $cname: TokenStream,)*
        }

        impl Paths {
            pub fn new(root: Option<syn::Type>) -> Self {
                let root = match root {
                    Some(t) => quote!(#t),
                    None => quote!(::mmd_formats),
                };
                let private = quote!(#root::__private);
                Paths {
                    $($name: quote!(#private $(::$seg)+),)*
                    $($cname: quote! $ctoks,)*
                }
            }
        }
    };
}

paths! {
    runtime {
        decode => Decode;
        decode_selected => DecodeSelected;
        encode => Encode;
        seq => Seq;
        selected => Selected;
        describe => Describe;
        input => Input;
        fixed_bytes => FixedBytes;
        fixed_out => FixedOut;
        output => Output;
        result => Result;
        rt => rt;
        layout => layout;
        binrw => binrw;
        describe_context => layout::DescribeContext;
        declared_context => DeclaredContext;
        within => Within;
        enclosing => Enclosing;
        no_fields_passed => NoFieldsPassed;
        context_fault => ContextFault;
        text_context => TextContext;
        text_encoding => TextEncoding;
        index_width => IndexWidth;
        index_type => IndexType;
        prim_type => layout::PrimType;
        walk => walk;
        segment => Segment;
        json => json;
        json_rt => json::rt;
        from_json => FromJson;
        json_value => Json;
        json_error => JsonError;
        if_serde => if_serde;
        serde => serde;
    }
    core {
        ok => (::core::result::Result::Ok);
        err => (::core::result::Result::Err);
        std_result => (::core::result::Result);
        into => (::core::convert::Into::into);
        some => (::core::option::Option::Some);
        none => (::core::option::Option::None);
        option => (::core::option::Option);
        sized => (::core::marker::Sized);
        unreachable => (::core::unreachable!());
    }
}
