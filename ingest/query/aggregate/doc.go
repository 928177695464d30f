// Package aggregate computes Ocelotl-style aggregated overviews of a
// trace (Dosimont's thesis, chapters 4-7; reading guide
// shared/docs/aggregation.md): a microscopic model mu(s, t, j) of
// resources x time slices x types is partitioned into parts that are
// homogeneous, chosen by the trade-off pIC = p*gain - (1-p)*loss between
// complexity reduction (gain, Shannon entropy) and information loss
// (Kullback-Leibler divergence against uniform redistribution).
//
// Temporal aggregation partitions the slices into contiguous intervals
// (every resource kept apart): qualities of all intervals in
// O(|T|^2 |S| |J|), best cuts by dynamic programming in O(|T|^2) per p,
// and the significant values of p by dichotomy. It reproduces the
// thesis's worked example (figure 5.7) exactly: the qualities are not
// normalised (gain and loss share a unit), ties prefer more gain then less
// loss, and the dichotomy stops below a threshold of 1e-4, keeping for
// each distinct partition the smallest p evaluated.
//
// For large models the qualities are streamed: [TemporalAccumulator]
// takes resources one at a time (in chunks, on several goroutines, merged
// at the end) and adds, for each (resource, type), the m(m+1)/2 rectangles
// of the (i, k) triangle on which its sum is constant (m: the slices where
// it is non-zero) to a 2D difference array; identical busy resources are
// computed once. Integer amounts (a model counted in ticks) take ent from
// a table, others a fast log2 accurate to 1e-15. Its results equal
// [NewTemporal]'s, the dense reference, up to rounding (tested).
//
// Spatiotemporal aggregation partitions (hierarchy node x interval)
// areas; the qualities of every area are computed once, so a Best call
// costs O(|H| |T|^3) and the dichotomy ([SignificantOptions]) can bound
// its calls and run several at once. [TemporalWork] and
// [SpatiotemporalWork] estimate the costs before running.
//
// Comparisons of trade-offs treat differences below rounding noise
// (1e-12 of the values compared) as ties, and qualities within rounding
// noise of zero are zero, so partitions equal in exact arithmetic follow
// the tie order rather than the last bit of a sum.
//
// Imports: the standard library only (it aggregates numbers, not traces).
package aggregate
