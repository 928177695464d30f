package history

import (
	"context"
	"io"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
)

// BenchmarkSummaryPass measures the summary pass alone (reading the change
// log back, computing every level) on a log shaped like that of `gen
// --threads 200000`: 200 000 summarised keys, 7.4 M records, each key's
// changes spread over the history.
func BenchmarkSummaryPass(b *testing.B) {
	const keys, perKey = 200_000, 37
	s := newSummaryBuild(func(*core.AttributeTree, core.Key) bool { return true }, filepath.Join(b.TempDir(), "index"), 0, nil)
	tree := core.NewAttributeTree()
	for i := range keys {
		tree.AddPath("t", strconv.Itoa(i))
	}
	s.scan(tree)
	end := core.Time(keys * perKey * 10)
	for r := range keys * perKey {
		// Key r%keys changes at every 10th ns: every key tiles the history.
		slot := int32(r % keys)
		v := byte(r / keys % 5)
		s.record(sumEntry{end: core.Time(r*10 + 9), slot: slot, v: v})
	}
	defer s.drop()
	b.ResetTimer()
	for range b.N {
		if _, err := s.writeSection(context.Background(), io.Discard, end); err != nil {
			b.Fatal(err)
		}
	}
}
