package trace

import (
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/tracetui/tracetui/core"
)

// Stacker is a source whose events may carry a sampled call stack
// (perfdata.Source).
type Stacker interface {
	// AppendStack appends the function names of the call stack of the
	// event last returned by Next, leaf first; nothing for an event
	// without one.
	AppendStack(dst []string) []string
}

// Profile is every sampled call stack of a trace, by thread and time,
// read in one pass over the trace the first time a profile is asked for
// ([Trace.Profile]), then kept in memory: per sample a time and a path
// number (12 bytes), and the distinct call paths as a trie of function
// names. Any selection of time and threads is then a binary search per
// thread and a count ([Profile.Count]). It implements calltree.Paths.
type Profile struct {
	threads map[int64]*threadSamples
	tids    []int64 // sorted

	parent []int32 // by path: its caller's path, -1 for an outermost frame
	name   []int32 // by path: its last function, in names
	names  []string
	n      int64 // samples
}

// threadSamples are one thread's samples in time order.
type threadSamples struct {
	times []core.Time
	paths []int32 // the path of each sample's stack (its leaf)
}

// Len returns the number of call paths.
func (p *Profile) Len() int { return len(p.parent) }

// Parent returns the caller's path of path i, -1 for an outermost frame.
func (p *Profile) Parent(i int32) int32 { return p.parent[i] }

// Name returns the function of path i's last frame.
func (p *Profile) Name(i int32) string { return p.names[p.name[i]] }

// Samples returns the number of samples with a stack.
func (p *Profile) Samples() int64 { return p.n }

// Threads returns the ids of the threads with samples, ascending.
func (p *Profile) Threads() []int64 { return p.tids }

// Count returns, for each path, the number of samples of threads tids
// (nil: every thread) in [from, to) that stopped there (the path is
// their stack).
func (p *Profile) Count(ctx context.Context, from, to core.Time, tids []int64) ([]int64, error) {
	self := make([]int64, len(p.parent))
	if tids == nil {
		tids = p.tids
	}
	for _, tid := range tids {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		th := p.threads[tid]
		if th == nil {
			continue
		}
		i, _ := slices.BinarySearch(th.times, from)
		j := sort.Search(len(th.times)-i, func(k int) bool { return th.times[i+k] >= to }) + i
		for _, path := range th.paths[i:j] {
			self[path]++
		}
	}
	return self, nil
}

// buildProfile reads every event of src and keeps the samples' stacks.
func buildProfile(ctx context.Context, src core.Source, st Stacker) (*Profile, error) {
	p := &Profile{threads: map[int64]*threadSamples{}}
	children := map[edge]int32{}
	ids := map[string]int32{}
	byStack := map[uint64]int32{} // a stack's hash -> its path, checked
	var hash maphash.Hash
	tidField := map[int]int{} // class ID -> index of its thread field
	var stack []string
	var last *threadSamples
	lastTID := int64(-1)
	for n := 0; ; n++ {
		if n&0xfff == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		ev, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading the samples: %w", err)
		}
		stack = st.AppendStack(stack[:0])
		if len(stack) == 0 {
			continue
		}
		fi, ok := tidField[ev.Class.ID]
		if !ok {
			fi = ev.Class.FieldIndex(core.FieldTID)
			tidField[ev.Class.ID] = fi
		}
		tid, ok := ev.Field(fi).AsInt()
		if !ok {
			continue
		}
		hash.Reset()
		for _, f := range stack {
			hash.WriteString(f)
			hash.WriteByte(0)
		}
		key := hash.Sum64()
		path, ok := byStack[key]
		if !ok || !p.is(path, stack) {
			path = p.insert(stack, ids, children)
			byStack[key] = path
		}
		if tid != lastTID || last == nil {
			last = p.threads[tid]
			if last == nil {
				last = &threadSamples{}
				p.threads[tid] = last
				p.tids = append(p.tids, tid)
			}
			lastTID = tid
		}
		last.times = append(last.times, ev.Time)
		last.paths = append(last.paths, path)
		p.n++
	}
	slices.Sort(p.tids)
	return p, nil
}

// edge is a path's child by function.
type edge struct{ parent, name int32 }

// is reports whether path is stack (leaf first).
func (p *Profile) is(path int32, stack []string) bool {
	for _, f := range stack {
		if path < 0 || p.names[p.name[path]] != f {
			return false
		}
		path = p.parent[path]
	}
	return path < 0
}

// insert adds stack (leaf first) to the trie and returns its path.
func (p *Profile) insert(stack []string, ids map[string]int32, children map[edge]int32) int32 {
	path := int32(-1)
	for k := len(stack) - 1; k >= 0; k-- {
		id, ok := ids[stack[k]]
		if !ok {
			id = int32(len(p.names))
			ids[stack[k]] = id
			p.names = append(p.names, stack[k])
		}
		e := edge{path, id}
		c, ok := children[e]
		if !ok {
			c = int32(len(p.parent))
			children[e] = c
			p.parent = append(p.parent, path)
			p.name = append(p.name, id)
		}
		path = c
	}
	return path
}

// profileCache holds a trace's profile once read.
type profileCache struct {
	mu sync.Mutex
	p  *Profile
}

// Profile returns the trace's sampled call stacks, reading them the
// first time (one pass over the trace; a cancelled pass is not kept). A
// trace whose reader records no stacks returns an empty profile.
func (t *Trace) Profile(ctx context.Context) (*Profile, error) {
	t.profile.mu.Lock()
	defer t.profile.mu.Unlock()
	if t.profile.p != nil {
		return t.profile.p, nil
	}
	src, err := t.index.OpenSource()
	if err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	defer src.Close()
	p, err := NewProfile(ctx, src)
	if err != nil {
		return nil, err
	}
	t.profile.p = p
	return p, nil
}

// NewProfile reads the sampled stacks of src's events (from its current
// position) into a profile; a source that is not a [Stacker] gives an
// empty one. It returns ctx's error when cancelled.
func NewProfile(ctx context.Context, src core.Source) (*Profile, error) {
	st, ok := src.(Stacker)
	if !ok {
		return &Profile{}, nil
	}
	p, err := buildProfile(ctx, src, st)
	if err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	return p, nil
}

// ThreadIDs returns the thread ids of Threads/<tid> keys ("0_<cpu>",
// the idle thread of a CPU, is 0); keys that name no thread are left
// out.
func ThreadIDs(tree *core.AttributeTree, keys []core.Key) []int64 {
	out := []int64{}
	for _, k := range keys {
		name := tree.Name(k)
		if strings.HasPrefix(name, "0_") {
			out = append(out, 0)
			continue
		}
		if tid, err := strconv.ParseInt(name, 10, 64); err == nil {
			out = append(out, tid)
		}
	}
	return out
}
