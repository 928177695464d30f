package pstree

import (
	"errors"
	"reflect"
	"testing"

	"github.com/tracetui/tracetui/core"
)

// sample is a table with every kind of entry.
func sample() *Table {
	return &Table{
		Threads: []Thread{
			{Key: 3, Name: "burn", PID: 100, HasPID: true},
			{Key: 7, Name: "", PID: -5, HasPID: true},
			{Key: 1 << 20, Name: "kworker/0:1"},
		},
		Processes: map[int64]string{100: "burn", -1: "", 1 << 40: "sshd"},
	}
}

// TestDecodeDamaged: every truncation and every flipped byte of an
// encoded table is refused with ErrCorrupt or decodes to some table,
// never panics; truncations are all refused.
func TestDecodeDamaged(t *testing.T) {
	data := Encode(sample())
	for n := range len(data) {
		if _, err := Decode(data[:n]); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%d of %d bytes: %v, want ErrCorrupt", n, len(data), err)
		}
	}
	for i := range data {
		bad := append([]byte(nil), data...)
		bad[i] ^= 0xff
		if _, err := Decode(bad); err != nil && !errors.Is(err, ErrCorrupt) {
			t.Errorf("byte %d flipped: %v", i, err)
		}
	}
	if _, err := Decode(append(data, 0)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("trailing byte: %v, want ErrCorrupt", err)
	}
}

func TestFits(t *testing.T) {
	at := core.NewAttributeTree()
	a := at.AddPath(core.AttrThreads, "1")
	b := at.AddPath(core.AttrThreads, "2")
	for _, c := range []struct {
		keys []core.Key
		want bool
	}{{[]core.Key{a, b}, true}, {[]core.Key{b, a}, false}, {[]core.Key{a}, false}, {nil, false}} {
		tab := &Table{}
		for _, k := range c.keys {
			tab.Threads = append(tab.Threads, Thread{Key: k})
		}
		if got := tab.Fits(at); got != c.want {
			t.Errorf("threads %v: Fits %v, want %v", c.keys, got, c.want)
		}
	}
}

// FuzzDecode: untrusted section bytes never panic nor allocate more
// than they hold, and a table decoded encodes to bytes that decode to
// the same table.
func FuzzDecode(f *testing.F) {
	f.Add(Encode(sample()))
	f.Add(Encode(&Table{}))
	f.Add([]byte("PST1\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := Decode(data)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v is not ErrCorrupt", err)
			}
			return
		}
		if len(tab.Threads) > len(data) || len(tab.Processes) > len(data) {
			t.Fatalf("%d threads, %d processes from %d bytes", len(tab.Threads), len(tab.Processes), len(data))
		}
		again, err := Decode(Encode(tab))
		if err != nil || !reflect.DeepEqual(again, tab) {
			t.Fatalf("re-encoded: %+v, %v; want %+v", again, err, tab)
		}
	})
}
