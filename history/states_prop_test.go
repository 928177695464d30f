package history

import (
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// TestStateTableMatchesReference sets random values (strings from a small
// set, so that keys share them, numbers, nulls) on random keys of a
// growing state table and checks every key's value against a map, and
// that the string pool holds exactly the strings some key holds.
func TestStateTableMatchesReference(t *testing.T) {
	r := coretest.Rand(t)
	st := newStateTable()
	want := map[core.Key]core.Value{}
	strs := []string{"", "read", "write", "futex", "bash", "a/b"}
	value := func() core.Value {
		switch r.IntN(5) {
		case 0:
			return core.Null()
		case 1:
			return core.Int32(r.Int32N(9) - 4)
		case 2:
			return core.Int64(r.Int64N(1 << 40))
		case 3:
			return core.Float64(r.Float64())
		}
		return core.String(strs[r.IntN(len(strs))])
	}
	wantOf := func(k core.Key) core.Value {
		if v, ok := want[k]; ok {
			return v
		}
		return core.Null()
	}
	n := 1 + r.IntN(3*statePageLen)
	if r.IntN(2) == 0 {
		n = 1 + r.IntN(40)
	}
	for step := range 20000 {
		if r.IntN(100) == 0 || st.len() == 0 {
			st.grow(min(n, st.len()+1+r.IntN(n)), 0)
		}
		k := core.Key(r.IntN(st.len()))
		v := value()
		st.set(k, v)
		if !v.IsNull() {
			want[k] = v
		} else {
			delete(want, k)
		}
		if k2 := core.Key(r.IntN(st.len())); st.value(k2) != wantOf(k2) {
			t.Fatalf("step %d: key %d = %v, want %v", step, k2, st.value(k2), wantOf(k2))
		}
	}
	held := map[string]int32{}
	for k := range core.Key(st.len()) {
		got, w := st.value(k), wantOf(k)
		if got != w {
			t.Fatalf("key %d = %v, want %v", k, got, w)
		}
		if w.Kind() == core.KindString {
			held[w.Str()]++
		}
	}
	if len(st.strs.ids) != len(held) {
		t.Fatalf("pool holds %d strings, keys hold %d", len(st.strs.ids), len(held))
	}
	for s, c := range held {
		if id, ok := st.strs.ids[s]; !ok || st.strs.refs[id] != c || st.strs.vals[id] != s {
			t.Fatalf("pool: %q has id %d (%v), %d references, want %d", s, id, ok, st.strs.refs[id], c)
		}
	}
}
