// Package history is the on-disk state history of tracetui: an R-SHT
// (State History Tree with R-Tree properties, Prieur-Drevon, Beamonte and
// Dagenais, JSS 2018), built once per trace and queried for every frame of
// the browser. The classic SHT and the eSHT build rules live beside it, so
// the three can be compared on the same data.
//
// # Using it
//
// An analysis writes through a [Builder] ([Create], then the
// [core.StateSink] methods, [Builder.AddSection], [Builder.Close]); the
// browser reads through a [Tree] ([Open], then the [core.History] queries
// Single, Full, Query2D and Query2DTimes, or [Rows] and [RowsAt] for
// per-key, time-ordered rows). Intervals are closed at both ends, as in
// package core: a state changed at t ends the previous one at t-1.
//
// # The three layouts
//
// Intervals reach the tree by non-decreasing end time. The rightmost branch
// of the tree is in memory; an interval goes into the deepest branch node
// whose start is at or before the interval's start. When that node is
// full, it and the branch below it are closed (written) and replaced by new
// nodes under the deepest ancestor that has room for one more child (a new
// root when none has).
//
//   - sht: the new branch starts one nanosecond after the latest end seen,
//     so siblings cover consecutive time ranges; with many attributes
//     whose first state starts at the trace start the tree degenerates
//     into a deep comb (section 3 of the article).
//   - esht: the new branch starts at the start of the interval that
//     caused it, so siblings overlap in time; a node ends at the latest end
//     of its sub-tree. Parents keep each child's time and key bounds.
//   - rsht: eSHT for the upper levels. The deepest branch node is the
//     R-tree parent: intervals that start at or after it go to the
//     R-buffer, which holds up to an R-tree of height r (times a fill
//     factor of 0.94). A full buffer is sorted by (class, key) (stable, so
//     each key stays in time order; classes below) and bulk-loaded
//     top-down under the parent (Algorithm 2): the longest intervals fill
//     the sub-tree root, the rest is cut into at most c consecutive
//     (class, key) ranges of equal encoded size, each loaded the same way
//     one level down, down to leaves; when the fan-out allows, the ranges
//     also start at every change of class, so that children hold one
//     class each. A node's own records are stored in key order. With
//     Options.RHeight zero the height is variable (vR), grown with the
//     number of keys A: the smallest r with c^(r-1)*n >= A, n the
//     intervals a leaf holds, capped at Options.MaxRHeight (default 3).
//     This departs from the article in two ways, both measured
//     (BenchmarkRHeight): the article's r = ceil(log_c(A/n)) only
//     guarantees c^r*n >= A, so between 2 and c+1 R-trees overlap a given
//     time, where one more level makes it at most 2 (at A = 100 k a
//     zoomed-out frame reads 14 nodes instead of 204, a single query 4
//     instead of 13, and the file shrinks from 12.7 to 9.2 bytes per
//     interval, since each key's consecutive intervals share a leaf); and
//     r follows A as soon as keys are added, not only when a new R-tree
//     parent starts, so the R-trees loaded while a trace creates its keys
//     do not keep a height chosen before the keys existed. A buffer loaded
//     early (its parent must close) gets the smallest height that holds
//     it.
//
// [Builder.Close] ends the last state of every key in order of start, so
// the long ones are placed first and the rest fits below them. The R-SHT
// holds back every key's first null (from the trace's start to the key's
// first change) and loads them in groups, in R-trees of their own
// (nulls.go): placed as they end, they stretched nearly every R-tree back
// to the trace's start.
//
// # Attribute classes
//
// Every key has a class: the shape of its path, each segment that
// contains a digit replaced by "*" (Threads/1234/Exec_name and
// Threads/7/Exec_name are both Threads/*/Exec_name; CPUs/2/IRQs/18 is
// CPUs/*/IRQs/*). Ids are dense, numbered in order of first appearance
// (at most 65536; shapes past the 65535th share the last id), and stored
// in the file's class table. Every node and every child entry holds the
// class range [min, max] of its sub-tree beside its key range: the class
// is a third dimension of the R-trees' bounding boxes.
//
// Why: analyses create keys entity by entity (Threads/42, then its
// Exec_name, PID, PPID, System_call, ...), so the keys of one kind of
// attribute are interleaved with all the others'. Sorted by key alone,
// nearly every leaf of a kernel trace holds a few Exec_name and PPID
// intervals, and the query of the process tree (the Exec_name and PPID of
// every thread, over the whole trace) read 3877 of the 5048 nodes of a
// 50 k-thread trace: no key range could prune anything. Sorted by (class,
// key), each kind of attribute fills its own leaves, and the query reads
// 749 nodes, every leaf among them holding only intervals it asked for.
// On the article's model (every key of one class) nothing changes.
//
// The class is a clustering heuristic only: queries stay correct with any
// class assignment (Check verifies that the class ranges are tight, not
// how the classes were chosen).
//
// Memory: the builder holds the current state and the class of every key
// (15 bytes each, inherently O(keys): states in pages of 32 k that are
// never copied, 64-bit values in pages made on first use, string values
// in a map beside them), until [Builder.EndStates], the attribute tree,
// the classes' shapes (one map entry per class), the branch (one block per
// level), the pipeline's batches (at most 64 of 4096 intervals, 8 MB)
// and the R-buffer: up to the capacity of an R-tree of height r in encoded bytes
// (about 4 MB at r = 3 with the defaults), and at most that capacity over
// 12 in records, held as 32-byte records plus their string bytes, three
// times over while it is sorted. It does not grow with the number of
// intervals (BenchmarkBuildMemory measures it).
//
// # Two cores
//
// Modify closes intervals on the caller's goroutine (with the analyses)
// and hands them, in batches of 4096 through a queue of 64 (about one
// R-tree load: the tree side works in bursts), to one goroutine that
// places them (R-buffer loads, node encoding, writes); Close waits for
// it, Abort tells it to drop what is queued and waits for the insertion
// in progress (TestPipelineAbortDropsQueue). Each batch records the
// attribute count at each of its intervals, which the vR height follows, so the
// tree side makes the same decisions as a build on one goroutine: the
// file has the same bytes (TestPipelineSameBytes). An error on the tree
// side is returned by the next Modify that hands over a batch, or Close.
//
// # Queries
//
// Every query walks the tree once from the root and reads each node at
// most once. Query2D and Query2DTimes sort and de-duplicate their key (and
// time) list once (a list of more than 4096 keys through a bitmap of the
// attributes), take the set of the keys' classes from the class table
// (read on the first query that needs it), then narrow the lists to each
// child's key, class and time bounds by binary search, and skip a child
// when nothing is left (section 5.4 of the article, with the class as a
// third dimension). Single skips a child whose class range does not hold
// its key's class; Full reads every class. Key-sorted nodes are merged
// with the key list, galloping over whichever side is behind (an R-tree
// root holds a few hundred records over the whole key range, and the
// process tree asks for 100 k keys), and a key's records, in time order,
// walk the time list once; other nodes are scanned. The children a walk
// will visit are read eight at a time before it descends, each run of consecutive blocks
// not in the cache with one pread. Callbacks receive intervals in tree
// order; returning false stops the walk. Contexts are checked at every
// node. A [Tree] is safe for concurrent queries: nodes are read with pread
// and decoded nodes are kept in a sharded LRU cache bounded in bytes
// (OpenOptions.CacheBytes, default 64 MiB). A walk caches the first 32
// nodes it decodes and decodes the rest into scratch nodes, not cached: on
// a virtual machine the fresh memory a cached node needs costs ten times
// more than decoding it again, so a cold frame of a thousand nodes stays
// cheap, the cache warms up over the next frames, and a query larger than
// the cache does not flush it (see scan.go). Every child read is checked against its
// parent's entry for it, so a misplaced or damaged block is an error,
// never a wrong answer, and a walk cannot loop. Query2D with t0 > t1
// returns nothing.
//
// # Defaults
//
// Block size 4096 and fan-out 32 were chosen by BenchmarkTuning (A = 1 M
// attributes of the article's model, 11 M intervals; figures in README)
// among 4, 8 and 16 KiB blocks and fan-outs 16, 32 and 64. What decides is
// how many R-trees overlap a given time, that is whether an R-tree of
// height r <= MaxRHeight holds about one interval per key: with fan-out
// 16 none does, and a zoomed-out frame reads 105 to 368 nodes; 4 KiB/32
// reads 112 (a single query 9, the article's sparse 2D query 3963) at
// 12.9 bytes per interval with an R-buffer of 4 MB; fan-out 64 reads 2 to
// 15 times fewer nodes (4 KiB/64: 42, 5 and 1166 at 11.7 bytes per
// interval) but needs a 4 to 16 times larger R-buffer (17 MB to 67 MB of
// encoded intervals, 130 MB and more of memory), for every trace of more
// than 21 k keys. 4 KiB/32 meets every target (README) with the smallest
// memory and matches the page size; Options.MaxChildren = 64 is the choice
// for traces of a million keys where memory is plentiful. (These figures
// are format version 1's; version 2's child entries are 4 bytes larger,
// and 4 KiB/32 reads 109, 9.1 and 3973 nodes at 13.1 bytes per interval.)
//
// # File format (version 5)
//
// Version 5 has version 4's bytes, placed otherwise: the R-SHT builder
// loads every key's first null in R-trees of their own (nulls.go), so
// an R-SHT node's children are no longer in order of end, and a query at
// the start of a trace reads a few nodes instead of one per R-tree; and
// the summary section checks its entries by chunks (trailer "LOD2"). A
// version 4 file is refused with ErrVersion and rebuilt. Version 4 adds the level-of-detail summaries, a section named "summary"
// (below, "Summaries"); a version 3 file is refused with ErrVersion and
// rebuilt, so that every index the browser opens has them. Version 3 stores the attribute tree as arrays read on demand (below).
// Version 2 added the attribute classes: the class table, its fields in
// the file header, and the class ranges of node headers and child
// entries. Older files are refused with ErrVersion (and rebuilt by the
// caller).
//
// All integers are little-endian; times are int64 nanoseconds; keys are
// int32. The file is a sequence of blocks of BlockSize bytes (a power of
// two, 2048 to 1 MiB) followed by a tail:
//
//	block 0              the file header, zero-padded to the block size
//	blocks 1..N          nodes: node seq s is at offset (s+1)*BlockSize
//	tail                 class table, attribute tree, section bytes,
//	                     section table
//
// File header (block 0):
//
//	off  size  field
//	0    8     magic: 0x89 'R' 'S' 'H' 'T' '\r' '\n' 0x1a
//	8    4     format version (uint32), 3
//	12   1     layout: 1 rsht, 2 esht, 3 sht
//	13   1     flags, 0
//	14   2     max children c (uint16)
//	16   4     block size (uint32)
//	20   4     root node seq (uint32)
//	24   4     node count N (uint32)
//	28   4     depth: levels from the root to the deepest leaf (uint32)
//	32   8     interval count (uint64)
//	40   8     trace start (int64)
//	48   8     trace end (int64), inclusive
//	56   4     attribute count (uint32)
//	60   4     largest R-tree height used (uint32; 0 for sht and esht)
//	64   8     attribute tree offset (uint64)
//	72   8     attribute tree length (uint64)
//	80   4     attribute tree CRC32C (uint32)
//	84   4     section count (uint32)
//	88   8     section table offset (uint64)
//	96   8     section table length (uint64)
//	104  4     section table CRC32C (uint32)
//	108  8     file size (uint64)
//	116  8     class table offset (uint64); its length is 2*A bytes
//	124  4     class table CRC32C (uint32)
//	128  4     class count (uint32): the classes used, at most 65536
//	           and at most A (0 only when A is 0)
//	132  24    reserved, 0
//	156  4     CRC32C (Castagnoli) of bytes 0..156
//	160  ...   zero up to the block size
//
// Node block:
//
//	off  size  field
//	0    1     type: 1 leaf, 2 core
//	1    1     flags: bit 0 records sorted by (key, start); bit 1 children
//	           ordered by (class, key) range (R-tree nodes): a child's
//	           class range starts at or after the previous one's ends,
//	           and children of one and the same class have key ranges in
//	           order
//	2    2     child count (uint16; 0 for leaves)
//	4    4     seq of this node (uint32)
//	8    4     seq of the parent (uint32; 0xFFFFFFFF for the root)
//	12   4     interval count (uint32)
//	16   8     start (int64): no interval of the sub-tree starts before
//	24   8     end (int64): no interval of the sub-tree ends after; the
//	           latest end of the sub-tree except for sht nodes (which end
//	           where the tree was when they closed) and the root (the trace)
//	32   4     min key of the sub-tree (int32)
//	36   4     max key of the sub-tree (int32)
//	40   2     min class of the sub-tree's keys (uint16)
//	42   2     max class of the sub-tree's keys (uint16); a sub-tree
//	           without any interval has keys [0, -1], classes
//	           [0xFFFF, 0], and may have end = start-1
//	44   4     record bytes (uint32)
//	48   4     CRC32C of the block with these four bytes left out
//	52   32*k  child entries, k = child count, each:
//	             0  4  child seq (uint32), strictly increasing
//	             4  8  child start (int64)    }
//	             12 8  child end (int64)      } equal to the child's
//	             20 4  child min key (int32)  } own header fields: the
//	             24 4  child max key (int32)  } bounding box of its
//	             28 2  child min class (uint16) whole sub-tree
//	             30 2  child max class (uint16)
//	...  ...   records (record bytes), then zeros to the end of the block
//
// A core node's capacity for records leaves room for c child entries; a
// record never exceeds 1 + 5 + 10 + 10 + 2 + core.MaxStringLen bytes, and
// Options are refused unless a core node can hold one.
//
// Record (an interval), encoded against the previous record of the node;
// before the first one, the previous key is 0 and the previous end is the
// node's start:
//
//	tag      1 byte: bits 0-2 value kind (core.Kind: 0 null, 1 int32,
//	         2 int64, 3 float64, 4 string); bit 3 K: a key delta follows
//	         (else same key as the previous record; the first record has
//	         K); bit 4 C: contiguous, start = previous end + 1 (never on the
//	         first record); bits 5-7: for int32, 0 or the value + 1 when
//	         the value is 0 to 6 (no payload then: every core.ThreadStatus
//	         and core.CPUStatus fits)
//	[K]      key - previous key: zigzag varint
//	[not C]  end - previous end: zigzag varint
//	         duration end - start: uvarint (end = start + duration if C,
//	         start = end - duration otherwise)
//	payload  int32, int64: zigzag varint; float64: 8 bytes, IEEE 754 bits;
//	         string: uvarint length (<= core.MaxStringLen) and UTF-8 bytes;
//	         null and inline int32: nothing
//
// Varints are encoding/binary's. Every record lies inside its node's time
// and key range, and its key's class inside the node's class range;
// key-sorted nodes have (key, start) strictly increasing.
//
// Class table (at its offset in the header, right after the nodes):
//
//	A times   class of key k (uint16), k = 0 .. A-1; ids are dense and
//	          numbered in order of first appearance (key k's class is at
//	          most 1 + the largest class of the keys before it)
//
// Attribute tree (at its offset in the header; the header's CRC32C
// covers its head and page table only, each page of the body has its own):
//
//	off  size  field
//	0    4     attribute count A (uint32)
//	4    4     name count N (uint32): the distinct names, N <= A
//	8    8     name bytes L (uint64)
//	16   4     page count P (uint32): ceil(body length / 4096)
//	20   12    reserved, 0
//	32   4*P   CRC32C of each 4096-byte page of the body (the last page
//	           may be short)
//	...        body:
//	  parent   A times int32: parent key of key k (-1 for a top-level
//	           attribute; parents always have smaller keys)
//	  name     A times uint32: name id of key k (< N)
//	  groups   A+2 times uint32: children of the top level are kids[g0,
//	           g1), those of key k are kids[g(k+1), g(k+2)); g0 = 0,
//	           g(A+1) = A, non-decreasing
//	  kids     A times int32: every key once, grouped by parent, in key
//	           order within a group
//	  byname   A times int32: the same groups, each in order of name id
//	  nameend  N times uint32: end of name i in the name bytes (name i
//	           is bytes [end of name i-1, end of name i), name 0 starts
//	           at 0)
//	  names    L bytes: the names, UTF-8 as the analyses gave them, sorted
//	           by bytes and distinct; name ids are their ranks
//
// The arrays are fixed-width so that an open index answers Parent, Name,
// Child (a binary search of the names, then of the parent's byname group)
// and Children (a kids group) by reading the pages they touch: the body is
// mapped, not read, at open, and each page is checked against its CRC32C
// the first time it is read; a damaged page reads as absent and is
// reported by the tree's Err. Version 2 stored the attribute tree as a
// varint stream that had to be decoded whole (0.65 s and about 100 bytes
// of memory per attribute at a million attributes); version 3 takes 20
// bytes per attribute on disk plus the names.
//
// The attribute tree follows the class table. Sections follow the
// attribute tree, back to back, in the order they were
// added. Section table:
//
//	4 bytes   section count S (uint32)
//	S times   name length (uint16), name (1 to 255 bytes of UTF-8), offset
//	          (uint64), size (uint64), CRC32C of the bytes (uint32)
//
// # Summaries
//
// The keys Options.Summarise names (ingest: core.SummaryRule, the rows the
// browser draws from states) get level-of-detail summaries, the "mip-map"
// the R-SHT article leaves as future work: per key, levels of time buckets
// of 2^k ns aligned on absolute time, the finest with at most 65 536
// buckets over the history, each next one 4 times coarser, down to at
// most 256 buckets (core.SummaryLevels). Per bucket: the state at its
// first instant, the dominant state, the intervals starting strictly
// inside it and whether one starts at its first instant (core.SummaryBucket
// says what a reader may conclude). Values are null and int32 0..253; a
// key that takes any other value has an empty entry (no summary).
//
// The build records each summarised key's changes as emit passes them (a
// log spilled to temporary files, 3 to 6 bytes per change, 4 bytes of
// state per key; summary_build.go); once the states end and so the span is
// known, up to two goroutines compute every level of every key exactly
// from its changes, looking at Options.Context every 256 keys, and Close
// appends the section last (summary_pass.go, summary_workers.go). The
// section is read through a memory mapping: on first use only its
// trailer, chunk checksums and levels are checked, and each 64 KiB chunk
// when a query first reads bytes of it (so
// opening a trace of 1.6 M threads does not read and sum 100 MB of
// summaries, nor 12.5 MB at 200 k threads); Check checks every chunk and
// the bitmap's ranks and the entries' ends throughout; a query
// reads the bitmap word, rank and entry bounds of each key and the runs of
// one level up to the window's end: no node.
//
// Section "summary", N keys (the attribute count), S of them summarised, L
// levels; offsets from the section's first byte:
//
//	entries   S entries back to back, in key order; entry i is the bytes
//	          from ends[i-1] (0 for i = 0) to ends[i]; empty: no summary.
//	          An entry is L levels, finest first, each a uvarint byte
//	          length and that many bytes of runs. A run is a uvarint count
//	          (>= 1) of identical consecutive buckets and 4 bytes: first
//	          state, dominant state (0..253: that int32, 254: null),
//	          changes strictly inside (saturated at 255), flags (bit 0: an
//	          interval starts at the bucket's first instant; other bits
//	          zero). A level's runs cover the buckets from start>>k to
//	          end>>k exactly.
//	words     ceil(N/64) uint64: bit k%64 of word k/64 is set when key k is
//	          summarised (bits past N zero)
//	ranks     ceil(N/64) uint32: summarised keys before each word
//	ends      S uint32 (above)
//	shifts    L bytes: k of each level, finest first, as core.SummaryLevels
//	          gives for [start, end]
//	crcs      C uint32: the CRC32C of each 64 KiB chunk of the section
//	          from its first byte to the end of shifts (the last chunk
//	          shorter), C = ceil(those bytes / 65536)
//	trailer   40 bytes: start (int64), end (int64), N (uint32), S
//	          (uint32), C (uint32), L (uint8), three zero bytes, the
//	          CRC32C of crcs and the trailer's first 32 bytes (uint32),
//	          "LOD2"
//
// # Durability and damage
//
// [Create] writes a temporary file ".<name>.tmp-<random>" in the
// destination directory (and ".sec" beside it for sections), holding an
// exclusive flock on it. The header block stays zero until the nodes, the
// attribute tree and the sections are written and synced; then the header
// is written and synced, the file renamed into place and the directory
// synced. A killed build leaves only temporary files, which have no magic
// and never open as an index; the next Create of the same path removes the
// ones no live builder holds.
//
// [Open] checks, in order: the magic (ErrNotIndex), the version
// (ErrVersion), the header checksum and fields (ErrCorrupt), the file size
// (ErrTruncated when shorter, ErrCorrupt when longer), the header block's
// zero padding, the section table and the root node. Nodes are checked
// (checksum, bounds, parent entry) as queries read them; the class table
// (checksum, size, dense ids) on the first query that needs it; the
// attribute tree's head and page table when it is opened
// ([Tree.LoadAttributes]), each of its pages when first read. [Tree.Check] reads everything
// and verifies every invariant. Any of these errors means: rebuild the
// index from the trace.
package history
