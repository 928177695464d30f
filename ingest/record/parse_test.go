package record

import (
	"encoding/binary"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestParseEvents(t *testing.T) {
	def := DefaultGroups
	for _, c := range []struct {
		spec string
		want Selection
		err  string
	}{
		{"", Selection{Groups: def}, ""},
		{"kmem", Selection{Groups: append(append([]string{}, def...), "kmem")}, ""},
		{"+kmem,-kmem", Selection{Groups: def}, ""},
		{"-workqueue", Selection{Groups: []string{"sched", "irq", "timer", "raw_syscalls", "task"}}, ""},
		{"-sched:sched_stat_runtime", Selection{Groups: def, Remove: []string{"sched/sched_stat_runtime"}}, ""},
		{"-sched:sched_stat_runtime,sched:sched_stat_runtime", Selection{Groups: def}, ""},
		{"kmem:kmalloc", Selection{Groups: def, Add: []string{"kmem/kmalloc"}}, ""},
		{"kmem/kmalloc,-kmem", Selection{Groups: def}, ""},
		{"sched:sched_switch", Selection{Groups: def}, ""}, // in a group already
		{"-all,sched", Selection{Groups: []string{"sched"}}, ""},
		{"-all", Selection{}, "no event"},
		{"../x", Selection{}, "want GROUP"},
		{"sched:", Selection{}, "want GROUP"},
	} {
		got, err := ParseEvents(c.spec)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want one saying %q", c.spec, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %+v, %v; want %+v", c.spec, got, err, c.want)
		}
	}
}

func TestCmdlines(t *testing.T) {
	saved := []byte("12 bash\n7 <...>\nbad line\n3 kworker/0:1\n")
	got := string(cmdlines(saved, map[int]string{12: "old", 5: "sleep", 7: "cc1"}))
	want := "3 kworker/0:1\n5 sleep\n7 cc1\n12 bash\n"
	if got != want {
		t.Errorf("cmdlines:\n%s\nwant\n%s", got, want)
	}
}

func TestParseCPUList(t *testing.T) {
	got := parseCPUList("0-2,5,x,9-8,7")
	want := map[int]bool{0: true, 1: true, 2: true, 5: true, 7: true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestStatField(t *testing.T) {
	st := "entries: 10\noverrun: 3\ncommit overrun: 0\ndropped events: 4\n"
	if o, d := statField(st, "overrun"), statField(st, "dropped events"); o != 3 || d != 4 {
		t.Errorf("overrun %d dropped %d, want 3 and 4", o, d)
	}
}

// page returns a ring-buffer page with the given commit word.
func page(commit uint64, stored uint64, size int) []byte {
	p := make([]byte, 4096)
	binary.LittleEndian.PutUint64(p[8:], commit)
	binary.LittleEndian.PutUint64(p[16+size:], stored)
	return p
}

func TestCountLost(t *testing.T) {
	d := &drainer{commitSize: 8}
	if d.count(page(0, 0, 0)) {
		t.Error("an empty page is kept")
	}
	if !d.count(page(100, 0, 100)) || d.lost != 0 || d.lostPages != 0 {
		t.Errorf("a page without lost events: lost %d/%d", d.lost, d.lostPages)
	}
	d.count(page(100|missedEvents|missedStored, 42, 100))
	d.count(page(100|missedEvents, 0, 100))
	if d.lost != 42 || d.lostPages != 1 {
		t.Errorf("lost %d, pages %d; want 42 and 1", d.lost, d.lostPages)
	}
	d.count(page(4090|missedEvents|missedStored, 0, 0)) // no room for the count
	if d.lostPages != 2 {
		t.Errorf("a count past the page is not counted as unknown")
	}
}

// FuzzCount: any page bytes are counted without panicking.
func FuzzCount(f *testing.F) {
	f.Add(page(100|missedEvents|missedStored, 42, 100), 8)
	f.Add([]byte{1, 2, 3}, 4)
	f.Fuzz(func(t *testing.T, p []byte, commitSize int) {
		d := &drainer{commitSize: 4}
		if commitSize == 8 {
			d.commitSize = 8
		}
		d.count(p)
		if d.lostPages < 0 {
			t.Fatal("negative count")
		}
	})
}

// FuzzParseEvents: any -e value parses or fails without panicking, and
// what parses names groups and events without path separators.
func FuzzParseEvents(f *testing.F) {
	for _, s := range []string{"", "kmem", "-all,sched:sched_switch", "+a/b,-a", "../..", ",,-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		sel, err := ParseEvents(spec)
		if err != nil {
			return
		}
		for _, g := range sel.Groups {
			if g == "" || strings.ContainsAny(g, "/.") {
				t.Fatalf("group %q", g)
			}
		}
		for _, e := range append(sel.Add, sel.Remove...) {
			if strings.Count(e, "/") != 1 || strings.Contains(e, "..") {
				t.Fatalf("event %q", e)
			}
		}
	})
}

// FuzzCmdlines: any saved_cmdlines content merges into "pid comm" lines.
func FuzzCmdlines(f *testing.F) {
	f.Add([]byte("12 bash\n7 <...>\nbad\n"))
	f.Add([]byte("-1 x\n99999999999999999999 y\n"))
	f.Fuzz(func(t *testing.T, saved []byte) {
		out := cmdlines(saved, map[int]string{1: "init"})
		for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
			pid, comm, ok := strings.Cut(line, " ")
			if _, err := strconv.Atoi(pid); !ok || err != nil || comm == "" {
				t.Fatalf("line %q", line)
			}
		}
	})
}
