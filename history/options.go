package history

import (
	"context"
	"fmt"
	"math/bits"
	"os"

	"github.com/tracetui/tracetui/core"
)

// Layout selects the build rules of the tree. The three layouts share the
// file format and the query code; only the placement of intervals in nodes
// differs, so they can be compared on the same data.
type Layout uint8

// Layouts. The zero value is the default, [LayoutRSHT].
const (
	// LayoutRSHT is the R-SHT: eSHT upper levels, and below them R-tree
	// sub-trees bulk-loaded from an in-memory R-buffer (longest intervals in
	// each sub-tree root, the rest split by key).
	LayoutRSHT Layout = iota
	// LayoutESHT is the enhanced SHT: a new node starts at its first
	// interval's start, so siblings overlap; parents hold each child's
	// time and key bounds.
	LayoutESHT
	// LayoutSHT is the classic State History Tree: siblings cover
	// consecutive time ranges, a new branch starts after the latest end.
	LayoutSHT
)

// String returns "rsht", "esht" or "sht".
func (l Layout) String() string {
	switch l {
	case LayoutRSHT:
		return "rsht"
	case LayoutESHT:
		return "esht"
	case LayoutSHT:
		return "sht"
	}
	return fmt.Sprintf("layout(%d)", uint8(l))
}

// ParseLayout reads a layout name: "rsht", "esht" or "sht".
func ParseLayout(s string) (Layout, error) {
	for _, l := range []Layout{LayoutRSHT, LayoutESHT, LayoutSHT} {
		if s == l.String() {
			return l, nil
		}
	}
	return 0, fmt.Errorf("unknown layout %q: want rsht, esht or sht", s)
}

// Defaults, chosen by BenchmarkTuning (see the package doc and README).
const (
	DefaultBlockSize   = 4096
	DefaultMaxChildren = 32
	DefaultMaxRHeight  = 3
	DefaultCacheBytes  = 64 << 20
	// MinBlockSize and MaxBlockSize bound Options.BlockSize (a power of two).
	MinBlockSize = 2048
	MaxBlockSize = 1 << 20
)

// Options configure a build. Zero values mean the benchmarked defaults.
type Options struct {
	// Layout is the build rule set (default LayoutRSHT).
	Layout Layout
	// BlockSize is the size of a node in bytes: a power of two between
	// MinBlockSize and MaxBlockSize (default 4096).
	BlockSize int
	// MaxChildren is the fan-out c of core nodes (default 32). A core node
	// reserves 32 bytes per child, and must still hold one interval of the
	// largest size (a string of core.MaxStringLen bytes).
	MaxChildren int
	// MaxRHeight caps the height r of the R-tree sub-trees of the R-SHT
	// (default 3). The R-buffer holds up to the capacity of a sub-tree of
	// height r, so this also bounds the build's memory: with the defaults,
	// about 4 MB of encoded intervals and at most 350 k intervals (32
	// bytes each in memory, three copies while sorting).
	MaxRHeight int
	// RHeight fixes the R-tree height (the article's R2, R3...). Zero
	// means variable height (vR): r = ceil(log_c(A/n)) for A keys and n
	// intervals per node, re-evaluated when a new R-tree parent starts,
	// capped by MaxRHeight.
	RHeight int
	// Summarise names the keys that get level-of-detail summaries (see
	// doc.go, "Summaries"); nil: none (and none for a history that starts
	// before time 0). Ingest passes core.SummaryRule.
	Summarise func(*core.AttributeTree, core.Key) bool
	// Context, when set, cancels the end of the states (EndStates, or
	// Close's) and the summary pass of Close: they then return its error
	// within milliseconds, and nothing is left at path.
	Context context.Context
	// Reclaim, when set, is called where the build leaves much garbage
	// before a large allocation (at ReturnMemoryFrom keys and more,
	// asking to give the freed pages back to the system): the program
	// that owns the process's memory policy collects there. Nil: the
	// build makes no process-wide call.
	Reclaim func(returnToOS bool)
	// Mode is the index file's permission bits (default 0600: private to
	// the user; the build's temporary files always are).
	Mode os.FileMode

	// oneClass puts every key in class 0: the R-SHT without attribute
	// classes, for the tests and benchmarks that measure them.
	oneClass bool
	// sequential places intervals on the caller's goroutine instead of
	// the pipeline's (tests compare the two files).
	sequential bool
	// queueDepth is the pipeline's queue in batches (0: pipelineDepth;
	// tests make it small, to fill it with few intervals).
	queueDepth int
}

// resolved returns o with defaults filled in, or an error for values that
// cannot work.
func (o Options) resolved() (Options, error) {
	if o.BlockSize == 0 {
		o.BlockSize = DefaultBlockSize
	}
	if o.MaxChildren == 0 {
		o.MaxChildren = DefaultMaxChildren
	}
	if o.MaxRHeight == 0 {
		o.MaxRHeight = DefaultMaxRHeight
	}
	if o.Layout > LayoutSHT {
		return o, fmt.Errorf("history: unknown layout %d", o.Layout)
	}
	if o.BlockSize < MinBlockSize || o.BlockSize > MaxBlockSize || bits.OnesCount(uint(o.BlockSize)) != 1 {
		return o, fmt.Errorf("history: block size %d: want a power of two in [%d, %d]", o.BlockSize, MinBlockSize, MaxBlockSize)
	}
	if o.MaxChildren < 2 || o.MaxChildren > maxFanOut(o.BlockSize) {
		return o, fmt.Errorf("history: max children %d: want 2 to %d for %d-byte blocks (a core node must still hold one %d-byte interval)",
			o.MaxChildren, maxFanOut(o.BlockSize), o.BlockSize, maxRecordSize)
	}
	if o.MaxRHeight < 1 || o.MaxRHeight > 8 {
		return o, fmt.Errorf("history: max R height %d: want 1 to 8", o.MaxRHeight)
	}
	if o.RHeight < 0 || o.RHeight > o.MaxRHeight {
		return o, fmt.Errorf("history: R height %d: want 0 (variable) to MaxRHeight %d", o.RHeight, o.MaxRHeight)
	}
	return o, nil
}

// maxFanOut is the largest fan-out that leaves room for the largest record
// in a core node of the given block size.
func maxFanOut(blockSize int) int {
	n := (blockSize - nodeHeaderSize - maxRecordSize) / childEntrySize
	return min(n, 0xFFFF)
}

// OpenOptions configure [Open]. Zero values mean defaults.
type OpenOptions struct {
	// CacheBytes bounds the memory of decoded nodes kept between queries
	// (default 64 MiB). Negative disables the cache.
	CacheBytes int64
}
