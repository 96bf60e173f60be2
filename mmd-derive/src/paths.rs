//! Every path the generated code names, in one table. Generated code names nothing
//! implicitly: it is tested under `#![no_implicit_prelude]`.
//!
//! The runtime crate is `::mmd_formats` unless the item says otherwise with
//! `#[mmd(crate = path)]` (for a crate that renames its dependency or re-exports it).

use proc_macro2::TokenStream;
use quote::quote;

/// The paths of one derive invocation.
pub struct Paths {
    root: TokenStream,
}

macro_rules! private_paths {
    ($($name:ident => $($seg:ident)::+;)*) => {
        impl Paths {
            $(
                pub fn $name(&self) -> TokenStream {
                    let p = self.private();
                    quote!(#p $(::$seg)+)
                }
            )*
        }
    };
}

private_paths! {
    decode => Decode;
    decode_selected => DecodeSelected;
    encode => Encode;
    selected => Selected;
    describe => Describe;
    input => Input;
    output => Output;
    result => Result;
    rt => rt;
    layout => layout;
    binrw => binrw;
    describe_context => layout::DescribeContext;
    declared_context => DeclaredContext;
    context_fault => ContextFault;
    path_segment => PathSegment;
    text_context => TextContext;
    text_encoding => TextEncoding;
    index_width => IndexWidth;
    index_type => IndexType;
    prim_type => layout::PrimType;
    walk => walk;
    segment => walk::Segment;
}

impl Paths {
    pub fn new(root: Option<syn::Type>) -> Self {
        Paths {
            root: match root {
                Some(t) => quote!(#t),
                None => quote!(::mmd_formats),
            },
        }
    }

    pub fn private(&self) -> TokenStream {
        let root = &self.root;
        quote!(#root::__private)
    }
    pub fn ok(&self) -> TokenStream {
        quote!(::core::result::Result::Ok)
    }
    pub fn err(&self) -> TokenStream {
        quote!(::core::result::Result::Err)
    }
    pub fn std_result(&self) -> TokenStream {
        quote!(::core::result::Result)
    }
    pub fn into(&self) -> TokenStream {
        quote!(::core::convert::Into::into)
    }
    pub fn some(&self) -> TokenStream {
        quote!(::core::option::Option::Some)
    }
    pub fn none(&self) -> TokenStream {
        quote!(::core::option::Option::None)
    }
    pub fn option(&self) -> TokenStream {
        quote!(::core::option::Option)
    }
    pub fn sized(&self) -> TokenStream {
        quote!(::core::marker::Sized)
    }
    pub fn unreachable(&self) -> TokenStream {
        quote!(::core::unreachable!())
    }
}
