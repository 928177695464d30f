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
package aggregate
