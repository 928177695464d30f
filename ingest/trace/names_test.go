package trace

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/states/kernel/sysnames"
)

// TestSyscallNamedInContents: a raw system call's number gets its name in
// front, in the print-format text of ftrace and trace.dat and in braces
// as LTTng prints, and only for numbers the architecture defines.
func TestSyscallNamedInContents(t *testing.T) {
	x86, err := sysnames.For("x86_64")
	must(t, err)
	ftrace := &core.EventClass{Name: "sys_enter", Fields: append(core.ThreadContextFields(), "NR", "args")}
	lttng := &core.EventClass{Name: "syscall_entry_unknown", Fields: []string{"id", "args"}}
	other := &core.EventClass{Name: "sched_wakeup", Fields: []string{"NR"}}
	perf := &core.EventClass{Name: "sys_exit", Fields: append(core.ThreadContextFields(), "id", "ret")}
	for _, c := range []struct {
		class    *core.EventClass
		nr       int64
		contents string
		want     string
	}{
		{ftrace, 202, "NR 202 (3c514d65c960, 80)", "futex: NR 202 (3c514d65c960, 80)"},
		{lttng, 202, "{ id = 202, args = [ 1, 2 ] }", "{ syscall = futex, id = 202, args = [ 1, 2 ] }"},
		{ftrace, 100000, "NR 100000 (0)", "NR 100000 (0)"},
		{lttng, 202, "{ cpu_id = 1 }, { id = 202, args = [ 1 ] }", "{ cpu_id = 1 }, { syscall = futex, id = 202, args = [ 1 ] }"},
		{perf, 0, "NR 0 = 12", "read: NR 0 = 12"},
		{other, 202, "NR 202", "NR 202"},
	} {
		ev := &core.Event{Class: c.class, Fields: make([]core.Field, len(c.class.Fields))}
		for i, f := range c.class.Fields {
			if f == "NR" || f == "id" {
				ev.Fields[i] = core.Field{Kind: core.FieldInt, Int: c.nr}
			}
		}
		r := scanRow{contents: []byte(c.contents)}
		if idx := sysNumberField(c.class); idx >= 0 {
			r.nameSyscall(ev, classFieldIdx{sysNR: idx}, x86)
		}
		if got := string(r.contents); got != c.want {
			t.Errorf("%s %d: contents %q, want %q", c.class.Name, c.nr, got, c.want)
		}
	}
}

// TestLabelledFields: the fields the table's contents print unlabelled
// are named for the details pane, strings quoted, the thread context
// (the TID and Process columns) left out.
func TestLabelledFields(t *testing.T) {
	cl := &core.EventClass{Name: "sched_wakeup", Fields: append(core.ThreadContextFields(), "comm", "pid", "absent")}
	ev := &core.Event{Class: cl, Fields: []core.Field{
		{Kind: core.FieldInt, Int: 7}, {Kind: core.FieldInt, Int: 7}, {Kind: core.FieldString, Bytes: []byte("bash")}, {},
		{Kind: core.FieldString, Bytes: []byte(`go, "x"`)}, {Kind: core.FieldInt, Int: -3}, {},
	}}
	if got, want := string(appendLabelled(nil, ev)), `{ comm = "go, \"x\"", pid = -3 }`; got != want {
		t.Errorf("labelled %q, want %q", got, want)
	}
	if got := appendLabelled(nil, &core.Event{Class: &core.EventClass{}}); len(got) != 0 {
		t.Errorf("no fields: %q, want nothing", got)
	}
}

// TestTableNamesSyscallsOfATrace: in the table, raw system calls read
// with their names (the ftrace capture does not record its architecture:
// the name is the machine's; the trace.dat one records x86_64), trace.dat
// events have their fields labelled for the details pane, and the ftrace
// text's contents, labelled already, have no second copy.
func TestTableNamesSyscallsOfATrace(t *testing.T) {
	t.Run("ftrace", func(t *testing.T) {
		rows := tableRows(t, "../../testdata/ftrace/tracefs-trace-tgid.txt")
		checkRows(t, rows, map[string]*regexp.Regexp{
			"sys_enter": regexp.MustCompile(`^\{ syscall = [a-z_0-9]+, NR = 0, args = "3, 7ffd12345678, 400, 0, 0, 0" \}$`),
			"sys_exit":  regexp.MustCompile(`^\{ syscall = [a-z_0-9]+, NR = 0, ret = 12 \}$`),
		}, nil)
	})
	t.Run("tracedat", func(t *testing.T) {
		rows := tableRows(t, "../tracedat/testdata/cover-v7-zstd.dat")
		checkRows(t, rows, map[string]*regexp.Regexp{
			"sys_enter": regexp.MustCompile(`^[a-z_0-9]+: NR [0-9]+ \([0-9a-f, ]+\)$`),
			"sys_exit":  regexp.MustCompile(`^([a-z_0-9]+: NR [0-9]+|NR -1) = -?[0-9]+$`), // -1: no call
		}, map[string]*regexp.Regexp{
			"sys_enter":        regexp.MustCompile(`^\{ NR = [0-9]+, args = "[0-9a-f, ]+" \}$`),
			"sys_exit":         regexp.MustCompile(`^\{ NR = -?[0-9]+, ret = -?[0-9]+ \}$`),
			"sys_enter_openat": regexp.MustCompile(`^\{ __syscall_nr = 257, dfd = -?[0-9]+, filename = [0-9]+, flags = [0-9]+, mode = [0-9]+ \}$`),
		})
		for _, r := range rows {
			if r.Event == "sys_enter" && strings.Contains(r.Contents, "NR 257 ") && !strings.HasPrefix(r.Contents, "openat: ") {
				t.Errorf("x86_64's 257 %q, want openat", r.Contents)
			}
		}
	})
}

func tableRows(t *testing.T, path string) []core.EventRow {
	t.Helper()
	ctx := context.Background()
	tr, err := Open(ctx, path, index.Options{IndexPath: filepath.Join(t.TempDir(), "t.idx")})
	must(t, err)
	defer tr.Close()
	tb := tr.Events()
	ranks := make([]int64, tb.Len())
	for i := range ranks {
		ranks[i] = int64(i)
	}
	rows, err := tb.Rows(ctx, ranks)
	must(t, err)
	return rows
}

// checkRows matches every row of the named events' contents and labelled
// fields (nil fields: want none).
func checkRows(t *testing.T, rows []core.EventRow, contents, fields map[string]*regexp.Regexp) {
	t.Helper()
	seen := map[string]int{}
	for _, r := range rows {
		if re, ok := contents[r.Event]; ok && !re.MatchString(r.Contents) {
			t.Errorf("%s %d contents %q, want %v", r.Event, r.Rank, r.Contents, re)
		}
		if fields == nil && r.Fields != "" {
			t.Errorf("%s %d fields %q, want none: the contents label them", r.Event, r.Rank, r.Fields)
		}
		if re, ok := fields[r.Event]; ok && !re.MatchString(r.Fields) {
			t.Errorf("%s %d fields %q, want %v", r.Event, r.Rank, r.Fields, re)
		}
		seen[r.Event]++
	}
	for e := range contents {
		if seen[e] == 0 {
			t.Errorf("no %s event", e)
		}
	}
	for e := range fields {
		if seen[e] == 0 {
			t.Errorf("no %s event", e)
		}
	}
}

// TestPerfFieldsLabelled: perf.data tracepoints print as `perf script`
// does (name=value text); the table's rows label each field for the
// details pane too.
func TestPerfFieldsLabelled(t *testing.T) {
	rows := tableRows(t, "../perfdata/testdata/threads.data")
	n := 0
	for _, r := range rows {
		if r.Event != "sched_switch" {
			continue
		}
		n++
		if !regexp.MustCompile(`^prev_comm=`).MatchString(r.Contents) ||
			!regexp.MustCompile(`^\{ prev_comm = "[^"]*", prev_pid = [0-9]+, prev_prio = [0-9]+, prev_state = "[^"]+", next_comm = "[^"]*", next_pid = [0-9]+, next_prio = [0-9]+ \}$`).MatchString(r.Fields) {
			t.Fatalf("sched_switch %d: contents %q fields %q", r.Rank, r.Contents, r.Fields)
		}
	}
	if n == 0 {
		t.Fatal("no sched_switch in threads.data")
	}
}

// TestFilterMatchesSyscallNames: a Contents filter sees the names the
// table shows: "^openat: " finds exactly the raw sys_enter and sys_exit
// rows of number 257 (x86_64's openat) in the trace.dat capture.
func TestFilterMatchesSyscallNames(t *testing.T) {
	ctx := context.Background()
	path := "../tracedat/testdata/cover-v7-zstd.dat"
	rows := tableRows(t, path)
	var want []int64
	for _, r := range rows {
		if (r.Event == "sys_enter" || r.Event == "sys_exit") && strings.HasPrefix(r.Contents, "openat: NR 257 ") {
			want = append(want, r.Rank)
		}
	}
	if len(want) == 0 {
		t.Fatal("no raw openat entry in the capture")
	}
	tr, err := Open(ctx, path, index.Options{IndexPath: filepath.Join(t.TempDir(), "t.idx")})
	must(t, err)
	defer tr.Close()
	var f core.EventFilter
	f[core.ColContents] = regexp.MustCompile(`^openat: `)
	var got []int64
	must(t, tr.Events().Filter(ctx, f, func(p core.FilterProgress) bool { got = append(got, p.Matches...); return true }))
	if !slices.Equal(got, want) {
		t.Errorf("filter matched %v, want %v", got, want)
	}
}
