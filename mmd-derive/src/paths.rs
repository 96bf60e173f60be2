//! Every path the generated code names, in one table. Generated code names nothing
//! implicitly: it is tested under `#![no_implicit_prelude]`.

use proc_macro2::TokenStream;
use quote::quote;

pub fn private() -> TokenStream {
    quote!(::mmd_formats::__private)
}
pub fn decode() -> TokenStream {
    let p = private();
    quote!(#p::Decode)
}
pub fn decode_selected() -> TokenStream {
    let p = private();
    quote!(#p::DecodeSelected)
}
pub fn encode() -> TokenStream {
    let p = private();
    quote!(#p::Encode)
}
pub fn selected() -> TokenStream {
    let p = private();
    quote!(#p::Selected)
}
pub fn describe() -> TokenStream {
    let p = private();
    quote!(#p::Describe)
}
pub fn input() -> TokenStream {
    let p = private();
    quote!(#p::Input)
}
pub fn output() -> TokenStream {
    let p = private();
    quote!(#p::Output)
}
pub fn result() -> TokenStream {
    let p = private();
    quote!(#p::Result)
}
pub fn rt() -> TokenStream {
    let p = private();
    quote!(#p::rt)
}
pub fn layout() -> TokenStream {
    let p = private();
    quote!(#p::layout)
}
pub fn binrw() -> TokenStream {
    let p = private();
    quote!(#p::binrw)
}
pub fn ok() -> TokenStream {
    quote!(::core::result::Result::Ok)
}
pub fn err() -> TokenStream {
    quote!(::core::result::Result::Err)
}
pub fn some() -> TokenStream {
    quote!(::core::option::Option::Some)
}
pub fn none() -> TokenStream {
    quote!(::core::option::Option::None)
}
pub fn walk() -> TokenStream {
    let p = private();
    quote!(#p::walk)
}
pub fn segment() -> TokenStream {
    let p = private();
    quote!(#p::walk::Segment)
}
