//! Renders the format reference from the layout descriptors (placeholder until its issue).

fn main() {
    println!("mmd-spec: the reference renderer arrives with its own issue");
}
