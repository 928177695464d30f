package trace

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index/profile"
)

// Profile is every sampled call stack of a trace, by thread and time,
// stored in its index (package ingest/index/profile): any selection of
// time and threads is counted from the index ([Profile.Count]). It
// implements calltree.Paths.
type Profile = profile.Profile

// profileCache holds a trace's profile once opened.
type profileCache struct {
	mu sync.Mutex
	p  *Profile
}

// Profile returns the trace's sampled call stacks, opening them in the
// index the first time; a trace whose reader records no stacks returns
// an empty profile.
func (t *Trace) Profile(ctx context.Context) (*Profile, error) {
	t.profile.mu.Lock()
	defer t.profile.mu.Unlock()
	if t.profile.p != nil {
		return t.profile.p, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := t.index.Profile()
	if err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	t.profile.p = p
	return p, nil
}

// NewProfile reads the sampled stacks of src's events (from its current
// position) into a profile held in memory, as the index would store
// them; a source that is not a core.Stacker gives an empty one. It
// returns ctx's error when cancelled.
func NewProfile(ctx context.Context, src core.Source) (*Profile, error) {
	st, ok := src.(core.Stacker)
	if !ok {
		return profile.Empty(), nil
	}
	w, err := profile.NewWriter("", "")
	if err != nil {
		return nil, err
	}
	defer w.Close()
	for n := 0; ; n++ {
		if n&0xfff == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		ev, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("profile: reading the samples: %w", err)
		}
		w.AddEvent(ev, st)
	}
	size, r, err := w.Finish()
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return profile.Open(bytes.NewReader(b), size, nil)
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
