package core

import (
	"strconv"
	"testing"
)

// BenchmarkAttributeTreeThreads builds the attributes of a kernel trace
// of 200 000 threads as the kernel analysis does: each thread under
// Threads by its id (ids in order, as Linux allocates them), then its
// seven sub-attributes by interned name id. It reports the CPU and the
// bytes allocated per attribute; the key table's growth and the name
// look-ups are most of it.
//
//	go test ./core -run '^$' -bench AttributeTreeThreads -benchtime 5x
func BenchmarkAttributeTreeThreads(b *testing.B) {
	const threads = 200_000
	subs := []string{AttrExecName, AttrPID, AttrPPID, AttrSystemCall, AttrPrio, AttrCurrentCPURQ, AttrWaker}
	b.ReportAllocs()
	for range b.N {
		t := NewAttributeTree()
		group := t.Add(Root, AttrThreads)
		ids := make([]uint32, len(subs))
		for i := range threads {
			k := t.Add(group, strconv.Itoa(1000+i))
			for j, s := range subs {
				if i == 0 {
					ids[j] = t.Intern(s)
				}
				t.AddID(k, ids[j])
			}
		}
		if t.Len() != 1+threads*(1+len(subs)) {
			b.Fatalf("%d attributes", t.Len())
		}
	}
	n := float64(b.N) * threads * float64(1+len(subs))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/attribute")
}
