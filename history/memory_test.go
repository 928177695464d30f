//go:build linux

package history

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const memEnv = "HISTORY_TEST_MEMORY_CHILD"

// BenchmarkBuildMemory builds the model's R-SHT (and eSHT) at a fixed
// number of attributes A with about 10 M and then 50 M intervals, each in
// a fresh process, and reports the peak resident memory (VmHWM) of that
// process: it must not grow with the number of intervals. The process
// holds the model's attribute tree and current states (O(A)) besides the
// builder. Run with -benchtime 1x.
func BenchmarkBuildMemory(b *testing.B) {
	for _, c := range []struct {
		l         Layout
		a, perKey int
	}{
		{LayoutRSHT, 100_000, 100}, {LayoutRSHT, 100_000, 500},
		{LayoutESHT, 100_000, 100}, {LayoutESHT, 100_000, 500},
		{LayoutRSHT, 1_000_000, 10}, {LayoutRSHT, 1_000_000, 50},
	} {
		name := fmt.Sprintf("%s/A=%s/intervals=%dM", c.l, shortCount(c.a), c.a*(c.perKey+1)/1_000_000)
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				cmd := exec.Command(os.Args[0], "-test.run=^TestBuildMemoryChild$")
				cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s,%d,%d,%s", memEnv, c.l, c.a, c.perKey, b.TempDir()))
				out, err := cmd.CombinedOutput()
				if err != nil {
					b.Fatalf("child: %v\n%s", err, out)
				}
				var kb int
				for _, line := range strings.Split(string(out), "\n") {
					if v, ok := strings.CutPrefix(line, "VmHWM-kB "); ok {
						kb, _ = strconv.Atoi(v)
					}
				}
				if kb == 0 {
					b.Fatalf("child printed no VmHWM:\n%s", out)
				}
				b.ReportMetric(float64(kb)/1024, "MiB-peak-RSS")
			}
		})
	}
}

// TestBuildMemoryChild is the child process of BenchmarkBuildMemory; it
// does nothing in a normal test run.
func TestBuildMemoryChild(t *testing.T) {
	arg := os.Getenv(memEnv)
	if arg == "" {
		t.Skip("child of BenchmarkBuildMemory")
	}
	parts := strings.Split(arg, ",")
	l, err := ParseLayout(parts[0])
	if err != nil {
		t.Fatal(err)
	}
	a, _ := strconv.Atoi(parts[1])
	perKey, _ := strconv.Atoi(parts[2])
	newModel(a, perKey).build(t, filepath.Join(parts[3], "index"), Options{Layout: l})
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			fmt.Printf("VmHWM-kB %s\n", strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
}
