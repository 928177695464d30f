package tracefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRegularFilesAndDirectoriesPass(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "t.txt")
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Check(p); err != nil {
		t.Errorf("Check(file) = %v", err)
	}
	if _, err := Check(dir); err != nil {
		t.Errorf("Check(dir) = %v", err)
	}
	f, err := Open(p)
	if err != nil {
		t.Fatalf("Open(file) = %v", err)
	}
	f.Close()
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("Open(dir) = %v, want a directory error", err)
	}
	if _, err := Check(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Check(missing) = %v", err)
	}
}

func TestDeviceRefused(t *testing.T) {
	if _, err := os.Stat(os.DevNull); err != nil {
		t.Skipf("no %s: %v", os.DevNull, err)
	}
	_, err := Open(os.DevNull)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a device") {
		t.Errorf("Open(%s) = %v, want a device refused", os.DevNull, err)
	}
}

func TestText(t *testing.T) {
	cases := []struct {
		head string
		want string // in the error; "" for text
	}{
		{"# tracer: nop\n", ""},
		{"", ""},
		{"\x17\x08\x44tracing6\x00\x00", "trace-cmd report"},
		{"abc\x00def", "NUL byte at offset 3"},
	}
	for _, c := range cases {
		err := Text("f", []byte(c.head))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("Text(%q) = %v, want nil", c.head, err)
		case c.want != "" && (!errors.Is(err, ErrBinary) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("Text(%q) = %v, want ErrBinary saying %q", c.head, err, c.want)
		}
	}
}
