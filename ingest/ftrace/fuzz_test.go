package ftrace

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
)

// FuzzFtrace feeds arbitrary text through Detect, Open, Next,
// AppendContents and Checkpoint/Seek: nothing may panic or hang, and time
// never goes back.
func FuzzFtrace(f *testing.F) {
	for _, name := range samples {
		if b, err := os.ReadFile(filepath.Join(sampleDir, name+".txt")); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "trace")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		Detect(path)
		src, err := Open(path, Options{})
		if err != nil {
			return
		}
		defer src.Close()
		var cp []byte
		var after []string
		last := core.MinTime
		for n := 0; ; n++ {
			if n == 2 {
				cp = src.Checkpoint(nil)
			}
			ev, err := src.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			if ev.Time < last {
				t.Fatalf("time goes back")
			}
			last = ev.Time
			if len(ev.Fields) != len(ev.Class.Fields) {
				t.Fatalf("%d fields for %d names", len(ev.Fields), len(ev.Class.Fields))
			}
			if n >= 2 && len(after) < 5 {
				after = append(after, string(src.AppendContents(nil, ev)))
			}
		}
		if cp == nil {
			return
		}
		if err := src.Seek(cp); err != nil {
			t.Fatalf("Seek: %v", err)
		}
		for i, want := range after {
			ev, err := src.Next()
			if err != nil {
				t.Fatalf("after Seek: %v", err)
			}
			if got := string(src.AppendContents(nil, ev)); got != want {
				t.Fatalf("after Seek, event %d = %s, want %s", i, got, want)
			}
		}
	})
}
