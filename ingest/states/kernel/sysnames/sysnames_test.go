package sysnames

import (
	"strings"
	"testing"
)

// Spot checks against the kernel's syscall tables (arch/*/entry/syscalls,
// include/uapi/asm-generic/unistd.h).
func TestNames(t *testing.T) {
	for _, c := range []struct {
		arch string
		n    int64
		want string
	}{
		{"x86_64", 0, "read"}, {"x86_64", 257, "openat"}, {"x86_64", 231, "exit_group"}, {"amd64", 56, "clone"},
		{"i386", 5, "open"}, {"i686", 252, "exit_group"},
		{"aarch64", 56, "openat"}, {"arm64", 220, "clone"},
		{"arm", 322, "openat"}, {"armv7l", 248, "exit_group"},
		{"riscv64", 56, "openat"}, {"riscv64", 93, "exit"},
	} {
		tab, err := For(c.arch)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := tab.Name(c.n); !ok || got != c.want {
			t.Errorf("%s %d = %q %v, want %q", c.arch, c.n, got, ok, c.want)
		}
	}
}

func TestUnknown(t *testing.T) {
	tab, err := For("x86_64")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int64{-1, 1 << 40, 100000} {
		if name, ok := tab.Name(n); ok {
			t.Errorf("Name(%d) = %q, want none", n, name)
		}
	}
	if _, ok := (*Table)(nil).Name(0); ok {
		t.Error("a nil table names a call")
	}
	if _, err := For("vax"); err == nil || !strings.Contains(err.Error(), "x86_64") {
		t.Errorf("For(vax) = %v, want an error listing the known architectures", err)
	}
	if len(Arches()) != 5 {
		t.Errorf("Arches() = %v, want 5", Arches())
	}
}

func TestErrno(t *testing.T) {
	for ret, want := range map[int64]string{0: "success", 3: "success", -2: "ENOENT", -11: "EAGAIN", -38: "ENOSYS", -4000: "E4000", -1225396224: "", -1 << 40: ""} {
		if got := Errno(ret); got != want {
			t.Errorf("Errno(%d) = %q, want %q", ret, got, want)
		}
	}
}
