//! The ways vertices come out of a [`Vertices`] and go back in: the editing guard, the
//! iterator, conversions from and to `Vec<Vertex>`, comparison and debug output (as a
//! list of [`Vertex`] values).

use super::{Vertices, EMPTY};
use crate::pmx::Vertex;
use std::fmt;
use std::ops::{Deref, DerefMut};

/// A vertex being edited in place (from [`Vertices::get_mut`]): it derefs to the
/// [`Vertex`], and is stored back when the guard goes away.
pub struct VertexMut<'a> {
    pub(super) store: &'a mut Vertices,
    pub(super) index: usize,
    pub(super) vertex: Vertex,
}

impl Deref for VertexMut<'_> {
    type Target = Vertex;
    fn deref(&self) -> &Vertex {
        &self.vertex
    }
}

impl DerefMut for VertexMut<'_> {
    fn deref_mut(&mut self) -> &mut Vertex {
        &mut self.vertex
    }
}

impl Drop for VertexMut<'_> {
    fn drop(&mut self) {
        let v = std::mem::replace(&mut self.vertex, EMPTY);
        self.store.put(self.index, v);
    }
}

impl fmt::Debug for VertexMut<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.vertex.fmt(f)
    }
}

/// The vertices of a [`Vertices`], in order, as [`Vertex`] values.
#[derive(Clone)]
pub struct VertexIter<'a> {
    pub(super) store: &'a Vertices,
    pub(super) front: usize,
    pub(super) back: usize,
}

impl Iterator for VertexIter<'_> {
    type Item = Vertex;
    fn next(&mut self) -> Option<Vertex> {
        if self.front >= self.back {
            return None;
        }
        self.front += 1;
        self.store.get(self.front - 1)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for VertexIter<'_> {
    fn next_back(&mut self) -> Option<Vertex> {
        if self.front >= self.back {
            return None;
        }
        self.back -= 1;
        self.store.get(self.back)
    }
}

impl ExactSizeIterator for VertexIter<'_> {}

impl<'a> IntoIterator for &'a Vertices {
    type Item = Vertex;
    type IntoIter = VertexIter<'a>;
    fn into_iter(self) -> VertexIter<'a> {
        self.iter()
    }
}

impl IntoIterator for Vertices {
    type Item = Vertex;
    type IntoIter = std::vec::IntoIter<Vertex>;
    fn into_iter(self) -> Self::IntoIter {
        self.to_vec().into_iter()
    }
}

impl FromIterator<Vertex> for Vertices {
    fn from_iter<I: IntoIterator<Item = Vertex>>(iter: I) -> Self {
        let mut s = Vertices::new();
        s.extend(iter);
        s
    }
}

impl Extend<Vertex> for Vertices {
    fn extend<I: IntoIterator<Item = Vertex>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        self.base.reserve(iter.size_hint().0);
        for v in iter {
            self.push(v);
        }
    }
}

impl From<Vec<Vertex>> for Vertices {
    fn from(v: Vec<Vertex>) -> Self {
        v.into_iter().collect()
    }
}

impl<const N: usize> From<[Vertex; N]> for Vertices {
    fn from(v: [Vertex; N]) -> Self {
        v.into_iter().collect()
    }
}

impl From<Vertices> for Vec<Vertex> {
    fn from(v: Vertices) -> Self {
        v.to_vec()
    }
}

impl PartialEq for Vertices {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl PartialEq<[Vertex]> for Vertices {
    fn eq(&self, other: &[Vertex]) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a == *b)
    }
}

impl PartialEq<Vec<Vertex>> for Vertices {
    fn eq(&self, other: &Vec<Vertex>) -> bool {
        *self == other[..]
    }
}

impl fmt::Debug for Vertices {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
