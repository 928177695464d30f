package pstree

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// sampleRows is a tree with every kind of row: a process with a leader,
// one without, threads under both and at the top level, call stack depths
// and a track; ids numeric and not.
func sampleRows() []Row {
	return []Row{
		{Label: "bash 12", TIDLen: 2, Kind: KindProcess, Key: 3, Thread: 3, Parent: -1, Expanded: true, Rank: 2, ByID: true},
		{Label: "worker 13", TIDLen: 2, Kind: KindThread, Key: 4, Thread: 4, Parent: 0, Rank: 2, ByID: true},
		{Label: "web 2000", Kind: KindProcess, Key: -1, Thread: -1, Parent: -1, Expanded: true, Rank: 2, ByID: true},
		{Label: "depth 1", Kind: KindCallStack, Key: 9, Thread: 4, Parent: 1, Rank: 0, ByID: true},
		{Label: "swapper/0 0_0", TIDLen: 3, Kind: KindThread, Key: 1, Thread: 1, Parent: -1, Rank: 2, ByID: true},
		{Label: "gc/mark", Kind: KindAsync, Key: 20, Thread: -1, Parent: 2, Rank: 1},
		{Label: "Web Content 2001", TIDLen: 4, Kind: KindThread, Key: 7, Thread: 7, Parent: 2, Rank: 2, ByID: true},
		{Label: "ls 5", TIDLen: 1, Kind: KindThread, Key: 2, Thread: 2, Parent: -1, Rank: 2, ByID: true},
	}
}

// readAll lists every row of enc, as read on demand and by Scan (which
// must agree), as "depth:label kind key thread parent end expanded tid".
func readAll(t *testing.T, enc []byte) ([]string, *Rows) {
	t.Helper()
	rs, err := OpenRows(bytes.NewReader(enc), int64(len(enc)), nil)
	if err != nil {
		t.Fatal(err)
	}
	text := func(r RowInfo, label string) string {
		return fmt.Sprintf("%d:%s %d %d %d %d %d %v %q", r.Depth, label, r.Kind, r.Key, r.Thread, r.Parent, r.End, r.Expanded, label[len(label)-r.TIDLen():])
	}
	var out, scanned []string
	for i := range int32(rs.Len()) {
		r := rs.Row(i)
		out = append(out, text(r, rs.Label(r)))
	}
	rs.Scan(0, int32(rs.Len()), func(_ int32, r RowInfo, label []byte) bool {
		scanned = append(scanned, text(r, string(label)))
		return true
	})
	if fmt.Sprint(out) != fmt.Sprint(scanned) {
		t.Fatalf("rows read one by one %q, scanned %q", out, scanned)
	}
	n := int32(0)
	rs.ScanRecords(0, int32(rs.Len()), func(i int32, r RowInfo) bool {
		if i != n || r != rs.Row(i) {
			t.Fatalf("ScanRecords: row %d %+v, want row %d %+v", i, r, n, rs.Row(n))
		}
		n++
		return true
	})
	return out, rs
}

// TestEncodeRows: siblings sorted (call stacks, then tracks, then by id,
// numbers first), depth-first, with subtree ends, the rows closed at open
// and the key index.
func TestEncodeRows(t *testing.T) {
	got, rs := readAll(t, EncodeRows(sampleRows(), 42))
	want := []string{
		`0:ls 5 1 2 2 -1 1 false "5"`,
		`0:bash 12 0 3 3 -1 4 true "12"`,
		`1:worker 13 1 4 4 1 4 false "13"`,
		`2:depth 1 2 9 4 2 4 false ""`,
		`0:web 2000 0 -1 -1 -1 7 true ""`,
		`1:gc/mark 6 20 -1 4 6 false ""`,
		`1:Web Content 2001 1 7 7 4 7 false "2001"`,
		`0:swapper/0 0_0 1 1 1 -1 8 false "0_0"`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("rows\n%q\nwant\n%q", got, want)
	}
	if c := rs.Collapsed(); fmt.Sprint(c) != "[2]" {
		t.Errorf("collapsed %v, want [2] (worker 13, closed with a call stack)", c)
	}
	for key, row := range map[int32]int32{1: 7, 2: 0, 3: 1, 4: 2, 7: 6} {
		if got, ok := rs.RowOfKey(key); !ok || got != row {
			t.Errorf("RowOfKey(%d) = %d, %v; want %d", key, got, ok, row)
		}
	}
	for _, key := range []int32{-1, 0, 9, 20, 1 << 30} {
		if got, ok := rs.RowOfKey(key); ok {
			t.Errorf("RowOfKey(%d) = %d, want none", key, got)
		}
	}
	if rs.Attributes() != 42 || rs.Err() != nil {
		t.Errorf("attributes %d, err %v", rs.Attributes(), rs.Err())
	}
}

// TestRowsManyBlocks: rows spanning many blocks and scan chunks read the
// same one by one and scanned, from any start.
func TestRowsManyBlocks(t *testing.T) {
	r := coretest.Rand(t)
	var rows []Row
	for i := range 3*scanChunk + r.IntN(scanChunk) {
		label := "thread-" + strconv.Itoa(r.IntN(1<<20)) + " " + strconv.Itoa(i)
		rows = append(rows, Row{Label: label, TIDLen: len(strconv.Itoa(i)), Kind: KindThread, Key: int32(i), Thread: int32(i), Parent: -1, ByID: true})
	}
	got, rs := readAll(t, EncodeRows(rows, 0))
	if len(got) != len(rows) {
		t.Fatalf("%d rows, want %d", len(got), len(rows))
	}
	lo := int32(r.IntN(len(rows)))
	n := 0
	rs.Scan(lo, int32(len(rows)), func(i int32, ri RowInfo, label []byte) bool {
		if i != lo+int32(n) || string(label) != rs.Label(rs.Row(i)) {
			t.Fatalf("scan from %d: row %d label %q, want row %d", lo, i, label, lo+int32(n))
		}
		n++
		return n < 100
	})
}

// TestRowsDamaged: every truncation is refused at open; every flipped
// byte is refused at open or reported (ErrCorrupt) when the rows are
// read, never a panic; a read row stays in bounds.
func TestRowsDamaged(t *testing.T) {
	enc := EncodeRows(sampleRows(), 42)
	for n := range len(enc) {
		if _, err := OpenRows(bytes.NewReader(enc[:n]), int64(n), nil); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%d of %d bytes: %v, want ErrCorrupt", n, len(enc), err)
		}
	}
	for i := range enc {
		bad := bytes.Clone(enc)
		bad[i] ^= 0xff
		var reported error
		rs, err := OpenRows(bytes.NewReader(bad), int64(len(bad)), func(err error) { reported = err })
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Errorf("byte %d flipped: %v", i, err)
			}
			continue
		}
		walk(rs)
		if !errors.Is(reported, ErrCorrupt) || !errors.Is(rs.Err(), ErrCorrupt) {
			t.Errorf("byte %d flipped: reading every row reported %v, Err %v; want ErrCorrupt", i, reported, rs.Err())
		}
	}
}

// walk reads everything rs holds, checking that rows stay in bounds.
func walk(rs *Rows) {
	for i := range int32(rs.Len()) {
		r := rs.Row(i)
		if r.End <= i || int(r.End) > rs.Len() || r.Parent >= i {
			panic(fmt.Sprintf("row %d out of bounds: %+v", i, r))
		}
		rs.Label(r)
	}
	rs.Scan(0, int32(rs.Len()), func(int32, RowInfo, []byte) bool { return true })
	for _, lit := range []string{"a", "1", " "} {
		rs.containing(context.Background(), []byte(lit), 7, func(int32, RowInfo, []byte) bool { return true })
	}
	rs.Collapsed()
	rs.RowOfKey(4)
}

// withCRCs returns data with its header's and blocks' CRCs made right
// (when its header describes its size), so that fuzzing reaches the
// checks behind them.
func withCRCs(data []byte) []byte {
	if len(data) < headerLen {
		return data
	}
	data = bytes.Clone(data)
	le := binary.LittleEndian
	le.PutUint32(data[28:], core.CRC32C(data[:28]))
	u := func(off int) int64 { return int64(le.Uint32(data[off:])) }
	body := u(4)*recordLen + u(8)*4 + u(12)*keyRowLen + u(16)
	if headerLen+body+4*((body+blockLen-1)/blockLen) != int64(len(data)) {
		return data
	}
	for b := int64(0); b < body; b += blockLen {
		le.PutUint32(data[headerLen+body+4*(b/blockLen):], core.CRC32C(data[headerLen+b:headerLen+min(b+blockLen, body)]))
	}
	return data
}

// FuzzRows: untrusted section bytes never panic nor allocate more than
// they hold, whatever is read of them, with their CRCs as they are and
// made right.
func FuzzRows(f *testing.F) {
	f.Add(EncodeRows(sampleRows(), 42))
	f.Add(EncodeRows(nil, 0))
	f.Add([]byte("PST1\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, data := range [][]byte{data, withCRCs(data)} {
			rs, err := OpenRows(bytes.NewReader(data), int64(len(data)), nil)
			if err != nil {
				if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrOldFormat) {
					t.Fatalf("error %v is not ErrCorrupt", err)
				}
				continue
			}
			if rs.Len() > len(data) {
				t.Fatalf("%d rows from %d bytes", rs.Len(), len(data))
			}
			walk(rs)
		}
	})
}

// TestControlFlowAttributes: the rows record the attribute count of the
// tree they were arranged from.
func TestControlFlowAttributes(t *testing.T) {
	at := core.NewAttributeTree()
	at.AddPath(core.AttrThreads, "1")
	enc := ControlFlow(at, &Table{Threads: []Thread{{Key: 1, Name: "init", PID: 1, HasPID: true}}}).Bytes()
	got, rs := readAll(t, enc)
	if rs.Attributes() != at.Len() || fmt.Sprint(got) != fmt.Sprint([]string{`0:init 1 0 1 1 -1 1 true "1"`}) {
		t.Errorf("rows %q, attributes %d, want %d", got, rs.Attributes(), at.Len())
	}
}

// TestControlFlowSamples: a thread with Threads/<tid>/Samples gets a
// "samples" row first under it (before its call stack depths) and opens
// on it; a thread without samples gets none and stays as it was.
func TestControlFlowSamples(t *testing.T) {
	at := core.NewAttributeTree()
	t1 := at.AddPath(core.AttrThreads, "1")
	d1 := at.AddPath(core.AttrThreads, "1", core.AttrCallStack, "1")
	t2 := at.AddPath(core.AttrThreads, "2")
	s1 := at.AddPath(core.AttrThreads, "1", core.AttrSamples)
	enc := ControlFlow(at, &Table{Threads: []Thread{{Key: t1, Name: "prof"}, {Key: t2, Name: "idle"}}}).Bytes()
	got, _ := readAll(t, enc)
	want := []string{
		fmt.Sprintf(`0:prof 1 %d %d %d -1 3 true "1"`, KindThread, t1, t1),
		fmt.Sprintf(`1:samples %d %d %d 0 2 false ""`, KindSamples, s1, t1),
		fmt.Sprintf(`1:depth 1 %d %d %d 0 3 false ""`, KindCallStack, d1, t1),
		fmt.Sprintf(`0:idle 2 %d %d %d -1 4 false "2"`, KindThread, t2, t2),
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rows\n%q, want\n%q", got, want)
	}
}

// TestAsyncLanes: the lanes found without the child index are the glob's.
func TestAsyncLanes(t *testing.T) {
	r := coretest.Rand(t)
	at := core.NewAttributeTree()
	for range 200 {
		pid := strconv.Itoa(r.IntN(8))
		switch r.IntN(3) {
		case 0:
			at.AddPath(core.AttrProcesses, pid, core.AttrAsync, "cat"+strconv.Itoa(r.IntN(3)), "n"+strconv.Itoa(r.IntN(3)), strconv.Itoa(1+r.IntN(3)))
		case 1:
			at.AddPath(core.AttrProcesses, pid, core.AttrExecName)
		default:
			at.AddPath(core.AttrThreads, pid, core.AttrAsync, "cat", "n", "1") // not a process's
		}
	}
	want := at.Glob(core.AttrProcesses + "/*/" + core.AttrAsync + "/*/*/*")
	if got := asyncLanes(at); fmt.Sprint(got) != fmt.Sprint(want) || len(want) == 0 {
		t.Errorf("lanes %v, want the glob's %v", got, want)
	}
}

// TestRowsVersionInMagic: the version in indexes' fingerprints is the one
// the section's magic carries, so a format change rebuilds cached indexes.
func TestRowsVersionInMagic(t *testing.T) {
	if got := int(rowsMagic[3] - '0'); got != RowsVersion {
		t.Fatalf("magic %q carries version %d, RowsVersion is %d", rowsMagic, got, RowsVersion)
	}
}
