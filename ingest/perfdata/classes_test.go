package perfdata

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestIsSampleClass: of the classes of a cpu-clock recording with switch
// events (switch.perf) and of a tracepoint recording (threads.data), the
// cpu-clock samples only are samples; tracepoints and side-band records
// are not.
func TestIsSampleClass(t *testing.T) {
	for _, c := range []struct {
		file string
		want []string
	}{{"switch.perf", []string{"cpu-clock"}}, {"threads.data", nil}} {
		src, err := Open(filepath.Join("testdata", c.file), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got, all []string
		for _, cl := range src.Classes() {
			all = append(all, cl.Name)
			if IsSampleClass(cl) {
				got = append(got, cl.Name)
			}
		}
		src.Close()
		if len(all) < 3 {
			t.Fatalf("%s: classes %v: too few to tell", c.file, all)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: samples %v of %v, want %v", c.file, got, all, c.want)
		}
	}
}
