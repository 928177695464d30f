package frame

import (
	"context"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index/pstree"
)

// ProcessTree returns the Control Flow rows of t rearranged as a process
// tree: each top-level process sits under the process that started it
// (its leader's PPID, the last one known in the trace), with its threads
// before its child processes; processes whose parent is not in the trace
// stay at the top level. A PPID that would close a loop (a pid reused)
// is ignored. The rows are read whole and encoded again in memory.
func ProcessTree(ctx context.Context, h core.History, t *RowTree) (*RowTree, error) {
	src := t.Rows
	n := int32(src.Len())
	rows := make([]pstree.Row, n)
	src.Scan(0, n, func(i int32, r pstree.RowInfo, label []byte) bool {
		rows[i] = pstree.Row{Label: string(label), TIDLen: r.TIDLen(), Key: r.Key, Thread: r.Thread, Parent: r.Parent,
			Kind: r.Kind, Expanded: r.Expanded}
		return true
	})
	if err := src.Err(); err != nil {
		return nil, err
	}
	at := h.Attributes()
	// The top-level processes by pid, and their leaders' PPID attributes.
	byPID := map[int64]int32{}
	ppidKey := map[core.Key]int32{}
	var keys []core.Key
	for i := range rows {
		r := &rows[i]
		if r.Parent >= 0 || r.Kind != pstree.KindProcess {
			continue
		}
		pid, err := strconv.ParseInt(r.Label[strings.LastIndexByte(r.Label, ' ')+1:], 10, 64)
		if err != nil {
			continue
		}
		byPID[pid] = int32(i)
		if r.Thread >= 0 {
			if k, ok := at.Child(core.Key(r.Thread), core.AttrPPID); ok {
				ppidKey[k] = int32(i)
				keys = append(keys, k)
			}
		}
	}
	start, end := h.Bounds()
	ppid := map[int32]int64{} // row -> its last known PPID
	last := map[int32]core.Time{}
	_, err := h.Query2D(ctx, keys, start, end, func(iv core.Interval) bool {
		i := ppidKey[iv.Key]
		if iv.Value.IsNull() || (iv.Value.Kind() != core.KindInt32 && iv.Value.Kind() != core.KindInt64) {
			return true
		}
		if t, ok := last[i]; !ok || iv.Start >= t {
			ppid[i], last[i] = iv.Value.Int(), iv.Start
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	for i, pp := range ppid {
		p, ok := byPID[pp]
		if !ok || p == i {
			continue
		}
		loop := false
		for a := p; a >= 0; a = rows[a].Parent {
			if a == i {
				loop = true
				break
			}
		}
		if !loop {
			rows[i].Parent = p
		}
	}
	out := NewRowTree(InMemoryRows(pstree.EncodeRows(rows, src.Attributes())), at)
	out.threads = t.threads
	return out, nil
}
