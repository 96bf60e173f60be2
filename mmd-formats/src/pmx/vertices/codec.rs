//! How a [`Vertices`] is read, written and walked: vertex by vertex, exactly as a
//! `Vec<Vertex>` is (same bytes, same errors, same walk), through the derived reader and
//! writer of [`Vertex`].

use super::{Base, Vertices, EMPTY};
use crate::codec::{encode_one, Decode, Encode};
use crate::error::Result;
use crate::fixed::{FixedOut, WRITE_BLOCK};
use crate::io::{Input, Output};
use crate::pmx::Vertex;
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
