// Package index builds a trace's index and owns its lifecycle: [Open]
// builds it once (the readers of package ingest, the analyses of package
// states, the R-SHT of package history, the event index of sub-package
// eventindex, the process table of sub-package pstree, the sampled call
// stacks of sub-package profile), keeps it in the
// cache directory ([CacheDir], fingerprinted by every reader's and
// analysis's version), serialises concurrent builds with a lock, prunes
// the cache ([PruneCache]), and guards every query of an opened index so
// that damage found late marks the index for a rebuild ([ErrDamaged]).
//
// Layers, each a separate consumer of the one below:
//
//	files -> reader (ingest/<format>) -> core.Event -> read-ahead
//	      -> analyses (ingest/states) -> history.Builder (R-SHT)
//	      -> event index (eventindex), process table (pstree),
//	         whole-trace statistics (ingest/states/kernel/kstats: summed
//	         from the analyses' writes, stored in their section),
//	         sampled call stacks (profile: a core.Stacker's, perf.data)
//
// Reading an opened index (event table, filters, density) is package
// ingest/trace; analyses over it are under ingest/query.
//
// Imports: core, history, ingest (the registry), the readers, ingest/states
// and its own sub-packages. Never ingest/trace, ingest/query, ingest/cli or
// tui.
package index
