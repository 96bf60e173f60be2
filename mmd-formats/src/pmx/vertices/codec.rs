//! How a [`Vertices`] is read, written and walked: vertex by vertex, exactly as a
//! `Vec<Vertex>` is (same bytes, same errors, same walk), through the derived reader and
//! writer of [`Vertex`].

use super::{Base, Vertices, EMPTY};
use crate::codec::{encode_one, Decode, Encode};
use crate::error::Result;
use crate::fixed::{FixedOut, WRITE_BLOCK};
use crate::index::BoneIndex;
use crate::io::{Input, Output};
use crate::pmx::{Vertex, Weight};
use crate::seq::{reservation, Seq};
use crate::walk::{Visitor, Walk};

impl Seq<Vertex> for Vertices {
    fn from_values(values: Vec<Vertex>) -> Self {
        Vertices::from(values)
    }
    fn len(&self) -> usize {
        self.base.len()
    }

    fn decode_n<C: ?Sized, I: Input + ?Sized>(input: &mut I, ctx: &C, n: usize) -> Result<Self>
    where
        Vertex: Decode<C>,
    {
        let mut s = Vertices::with_capacity(reservation::<Base, I>(input, n));
        for i in 0..n {
            let v = Vertex::decode(input, ctx).map_err(|e| e.in_index(i))?;
            s.append(v);
            if i == 0 && s.stride > 0 {
                // Every vertex has as many additional UVs as the first (the header's count),
                // each 16 bytes of what is left of the input.
                let fit = usize::try_from(input.remaining() / 16).unwrap_or(usize::MAX);
                let rest = (n - 1).saturating_mul(s.stride).min(fit);
                s.uvs.reserve_exact(reservation::<[f32; 4], I>(input, rest));
            }
        }
        s.shrink();
        Ok(s)
    }

    fn encode_all<C: ?Sized, O: Output + ?Sized>(&self, out: &mut O, ctx: &C) -> Result<()>
    where
        Vertex: Encode<C>,
    {
        // To an output that records no spans, vertices go out a block at a time (the
        // fixed path); one that cannot is written the ordinary way, which says why.
        let mut v = EMPTY;
        let mut i = 0;
        let n = self.len();
        if !out.records_spans() {
            let mut buf = [0u8; WRITE_BLOCK];
            while i < n {
                let mut w = FixedOut::new(&mut buf);
                let mut used = 0;
                while i < n {
                    self.fill(i, &mut v);
                    if v.encode_fixed(&mut w, ctx).is_none() {
                        break;
                    }
                    used = w.written();
                    i += 1;
                }
                out.write_bytes(&buf[..used])?;
                if i < n && used == 0 {
                    encode_one(&v, i, out, ctx)?;
                    i += 1;
                }
            }
        }
        for i in i..n {
            self.fill(i, &mut v);
            encode_one(&v, i, out, ctx)?;
        }
        Ok(())
    }

    /// From the size of one vertex of each weight type (the tables' lengths count them)
    /// and 16 bytes per additional UV, without building the vertices; vertex by vertex
    /// when edits have left table entries no vertex uses or vertices with another number
    /// of additional UVs, where the counts would not be exact.
    fn size_hint_all<C: ?Sized>(&self, ctx: &C) -> usize
    where
        Vertex: Encode<C>,
    {
        let n = self.len();
        if self.unused != 0 || !self.odd_uvs.is_empty() {
            let mut v = EMPTY;
            let mut total = 0usize;
            for i in 0..n {
                self.fill(i, &mut v);
                total = total.saturating_add(v.size_hint(ctx));
            }
            return total;
        }
        // One vertex of each weight type, without additional UVs (BDEF4 and QDEF take the
        // same bytes: four bones and four weights).
        let bone = BoneIndex::NONE;
        let size = |weight: Weight| Vertex { weight, ..EMPTY }.size_hint(ctx);
        let one = size(Weight::Bdef1 { bone });
        let two = size(Weight::Bdef2 {
            bones: [bone; 2],
            weight: 0.0,
        });
        let four = size(Weight::Bdef4 {
            bones: [bone; 4],
            weights: [0.0; 4],
        });
        let spherical = size(Weight::Sdef {
            bones: [bone; 2],
            weight: 0.0,
            c: [0.0; 3],
            r0: [0.0; 3],
            r1: [0.0; 3],
        });
        let bdef1 = n
            .saturating_sub(self.two.len())
            .saturating_sub(self.four.len())
            .saturating_sub(self.spherical.len());
        let uvs = n.saturating_mul(self.stride).saturating_mul(16);
        [
            (bdef1, one),
            (self.two.len(), two),
            (self.four.len(), four),
            (self.spherical.len(), spherical),
        ]
        .iter()
        .fold(uvs, |total, &(count, each)| {
            total.saturating_add(count.saturating_mul(each))
        })
    }

    fn encode_fixed_all<C: ?Sized>(&self, out: &mut FixedOut<'_>, ctx: &C) -> Option<()>
    where
        Vertex: Encode<C>,
    {
        let mut v = EMPTY;
        for i in 0..self.len() {
            self.fill(i, &mut v);
            v.encode_fixed(out, ctx)?;
        }
        Some(())
    }
}

impl Walk for Vertices {
    fn walk(&self, visitor: &mut dyn Visitor) {
        visitor.begin_seq(self.len());
        let mut v = EMPTY;
        for i in 0..self.len() {
            self.fill(i, &mut v);
            v.walk(visitor);
        }
        visitor.end();
    }
}
