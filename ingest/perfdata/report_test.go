package perfdata

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var reportCols = regexp.MustCompile(`\s{2,}`)

// perfReportSelf runs `perf report --no-children -g none` with the
// sample, comm, dso and sym columns and returns the sample count of each
// "comm|dso|[k] sym" row.
func perfReportSelf(t *testing.T, perf, path string) map[string]int64 {
	t.Helper()
	out, err := exec.Command(perf, "report", "-i", path, "--stdio", "--no-children", "-g", "none", "-F", "sample,comm,dso,sym").Output()
	if err != nil {
		t.Fatalf("perf report: %v", err)
	}
	rows := map[string]int64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := reportCols.Split(line, 4)
		if len(f) != 4 {
			t.Fatalf("perf report line %q", line)
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			t.Fatalf("perf report line %q", line)
		}
		rows[f[1]+"|"+f[2]+"|"+f[3]] += n
	}
	return rows
}

// TestProfileVsPerfReport: the samples' leaf frames ([Source.Frames]),
// counted by thread name, file and symbol, equal perf report's
// self-overhead rows (sample counts) on profiles recorded in the test,
// with and without call chains.
func TestProfileVsPerfReport(t *testing.T) {
	perf := perfTool(t)
	for _, g := range []bool{false, true} {
		args := []string{"record", "-e", "cpu-clock", "-F", "999", "-o", "perf.data"}
		if g {
			args = append(args, "-g")
		}
		args = append(args, "--", "sh", "-c", "dd if=/dev/zero bs=1M count=150 2>/dev/null | sha256sum >/dev/null")
		path := recordPerf(t, args...)
		want := perfReportSelf(t, perf, path)
		src, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int64{}
		var frames []Frame
		for {
			ev, err := src.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if frames = src.Frames(frames[:0]); len(frames) == 0 {
				continue
			}
			f := frames[0]
			dso := f.DSO
			switch {
			case dso == "":
				dso = "[unknown]"
			case !strings.HasPrefix(dso, "["):
				dso = filepath.Base(dso)
			}
			kind := "[.]"
			if f.Kernel {
				kind = "[k]"
			}
			sym := f.Symbol
			if sym == "" {
				sym = fmt.Sprintf("0x%016x", f.Addr)
			}
			comm := string(ev.Field(ev.Class.FieldIndex("context.comm")).Bytes)
			got[comm+"|"+dso+"|"+kind+" "+sym]++
		}
		src.Close()
		bad := 0
		for k, n := range want {
			if got[k] != n && bad < 5 {
				t.Errorf("-g %v: %s: %d samples, perf report %d", g, k, got[k], n)
				bad++
			}
		}
		for k, n := range got {
			if _, ok := want[k]; !ok && bad < 5 {
				t.Errorf("-g %v: %s: %d samples, not in perf report", g, k, n)
				bad++
			}
		}
		t.Logf("-g %v: %d rows", g, len(want))
	}
}
