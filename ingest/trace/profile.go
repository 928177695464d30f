package trace

import (
	"context"
	"fmt"
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
