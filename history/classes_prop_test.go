package history

import (
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// TestClasserMatchesReference grows random attribute trees (sometimes past
// a page of classes), extends the classer at random points and checks every
// key's class against a brute-force reference that keys the classes by the
// segment's string: ids in order of first appearance, digits as "*".
func TestClasserMatchesReference(t *testing.T) {
	r := coretest.Rand(t)
	words := []string{"Threads", "CPUs", "Exec_name", "PID", "IRQs", "a", "b", "x_y"}
	segment := func() string {
		switch r.IntN(4) {
		case 0:
			return strconv.Itoa(r.IntN(5000))
		case 1:
			return words[r.IntN(len(words))] + strconv.Itoa(r.IntN(3))
		}
		return words[r.IntN(len(words))]
	}
	tr := core.NewAttributeTree()
	c := newClasser(false)
	n := 1 + r.IntN(3*classPageLen)
	if r.IntN(2) == 0 {
		n = 1 + r.IntN(300)
	}
	for tr.Len() < n {
		parent := core.Root
		if tr.Len() > 0 && r.IntN(8) > 0 {
			parent = core.Key(r.IntN(tr.Len()))
		}
		tr.Add(parent, segment())
		if r.IntN(64) == 0 {
			c.extend(tr)
		}
	}
	c.extend(tr)
	if c.len() != tr.Len() {
		t.Fatalf("%d classes for %d keys", c.len(), tr.Len())
	}
	type ref struct {
		parent int // class of the parent, -1 at the top
		seg    string
	}
	ids := map[ref]int{}
	want := make([]int, tr.Len())
	for k := range core.Key(tr.Len()) {
		rf := ref{parent: -1, seg: tr.Name(k)}
		if p := tr.Parent(k); p != core.Root {
			rf.parent = want[p]
		}
		if hasDigit(rf.seg) {
			rf.seg = "*"
		}
		id, ok := ids[rf]
		if !ok {
			id = len(ids)
			ids[rf] = id
		}
		want[k] = id
		if got := c.class(k); int(got) != id {
			t.Fatalf("key %d (%s): class %d, want %d", k, tr.Path(k), got, id)
		}
	}
	if c.count() != len(ids) {
		t.Fatalf("count %d, want %d", c.count(), len(ids))
	}
	if _, err := decodeClasses(c.encode(), uint32(c.len()), uint32(c.count())); err != nil {
		t.Fatal(err)
	}
}
