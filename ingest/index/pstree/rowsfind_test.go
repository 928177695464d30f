package pstree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
)

// TestContainingMatchesScan: on random rows with labels of a small
// alphabet (so that literals recur, straddle labels and chunk ends), the
// rows Containing gives for a random literal and chunk length are those
// whose label contains it, in order, with their labels.
func TestContainingMatchesScan(t *testing.T) {
	r := coretest.Rand(t)
	for range 300 {
		rows := make([]Row, r.IntN(60))
		for i := range rows {
			var b strings.Builder
			for range r.IntN(7) {
				b.WriteByte("ab "[r.IntN(3)])
			}
			rows[i] = Row{Label: b.String(), Key: -1, Thread: -1, Parent: -1}
		}
		_, rs := readAll(t, EncodeRows(rows, 0))
		lit := []byte(strings.Repeat("a", r.IntN(3)) + "b"[:r.IntN(2)])
		chunk := int64(1 + r.IntN(12))
		var want, got []string
		for i, row := range rows {
			if bytes.Contains([]byte(row.Label), lit) {
				want = append(want, fmt.Sprintf("%d:%q", i, row.Label))
			}
		}
		stop := r.IntN(len(want) + 2) // fn returns false at the stop-th row (never when beyond)
		err := rs.containing(context.Background(), lit, chunk, func(i int32, ri RowInfo, label []byte) bool {
			if string(label) != rs.Label(ri) {
				t.Fatalf("row %d given label %q, its label is %q", i, label, rs.Label(ri))
			}
			got = append(got, fmt.Sprintf("%d:%q", i, label))
			return len(got) != stop
		})
		if stop > 0 && stop <= len(want) {
			want = want[:stop]
		}
		if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("rows %+v, literal %q, chunk %d: got %v, %v; want %v", rows, lit, chunk, got, err, want)
		}
	}
}

// TestContainingCancelled: a search whose context is done stops with its
// error, literal or not.
func TestContainingCancelled(t *testing.T) {
	_, rs := readAll(t, EncodeRows(sampleRows(), 0))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, lit := range []string{"", "a"} {
		if err := rs.Containing(ctx, []byte(lit), func(int32, RowInfo, []byte) bool { return true }); !errors.Is(err, context.Canceled) {
			t.Errorf("literal %q: %v, want context.Canceled", lit, err)
		}
	}
}
