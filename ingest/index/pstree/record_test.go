package pstree

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// TestRecorderEqualsQuery: random state changes (several at one instant,
// nulls, values that repeat, the same names in places the process tree
// does not read) written through a Recorder into a MemHistory give the
// table that Query reads from the closed history; the table survives
// Encode and Decode.
func TestRecorderEqualsQuery(t *testing.T) {
	r := coretest.Rand(t)
	for range 50 {
		checkRecorder(t, r)
	}
}

func checkRecorder(t *testing.T, r *rand.Rand) {
	t.Helper()
	mem := core.NewMemHistory(0)
	rec := NewRecorder(mem)
	at := rec.Attributes()
	var keys []core.Key
	add := func(path ...string) { keys = append(keys, at.AddPath(path...)) }
	for range r.IntN(8) {
		tid := strconv.Itoa(r.IntN(20))
		if r.IntN(6) == 0 {
			tid = "t" + tid // not a number
		}
		add(core.AttrThreads, tid, core.AttrExecName)
		add(core.AttrThreads, tid, core.AttrPID)
		add(core.AttrThreads, tid, core.AttrPPID)
		add(core.AttrThreads, tid, core.AttrCallStack, core.AttrPID)
	}
	for range r.IntN(4) {
		pid := strconv.Itoa(r.IntN(20))
		add(core.AttrProcesses, pid, core.AttrExecName)
		add(core.AttrProcesses, pid, core.AttrPID)
	}
	add(core.AttrCPUs, "0", core.AttrExecName)
	add(core.AttrExecName)
	values := []core.Value{core.Null(), core.Null(), core.String("a"), core.String("b"), core.Int32(1), core.Int32(2), core.Int64(1 << 40)}
	now := core.Time(0)
	for range r.IntN(60) {
		now += core.Time(r.IntN(3)) // often several changes at one instant
		k := keys[r.IntN(len(keys))]
		if err := rec.Modify(k, now, values[r.IntN(len(values))]); err != nil {
			t.Fatal(err)
		}
	}
	got := rec.Table()
	if err := mem.Close(now + core.Time(r.IntN(2))); err != nil {
		t.Fatal(err)
	}
	want, err := Query(context.Background(), mem)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("recorded table\n%+v\nqueried table\n%+v", got, want)
	}
	enc := ControlFlow(at, got).Bytes()
	rows, err := OpenRows(bytes.NewReader(enc), int64(len(enc)), nil)
	if err != nil || rows.Attributes() != at.Len() {
		t.Fatalf("the recorded table's rows: %v", err)
	}
}

// TestRecorderBadKey: a key the tree does not have is the sink's error,
// not a panic.
func TestRecorderBadKey(t *testing.T) {
	rec := NewRecorder(core.NewMemHistory(0))
	if err := rec.Modify(5, 0, core.Int32(1)); !errors.Is(err, core.ErrBadKey) {
		t.Errorf("Modify of key 5 in an empty tree: %v, want ErrBadKey", err)
	}
}
