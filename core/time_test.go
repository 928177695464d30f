package core

import (
	"errors"
	"testing"
)

func TestParseTime(t *testing.T) {
	const start = Time(1_000_000_000)
	cases := []struct {
		in   string
		want Time
	}{
		{"1500", 1500},
		{"12.5ms", 12_500_000},
		{"3s", 3_000_000_000},
		{"250ns", 250},
		{"7us", 7000},
		{"7µs", 7000},
		{"2m", 120_000_000_000},
		{"1h", 3_600_000_000_000},
		{"+200us", start + 200_000},
		{"+0", start},
		{"1412670961.211260539", 1412670961_211260539},
		{"5.5", 5_500_000_000},
		{" 42 ", 42},
	}
	for _, c := range cases {
		got, err := ParseTime(c.in, start)
		if err != nil || got != c.want {
			t.Errorf("ParseTime(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "ms", "abc", "12parsecs", "+", "1e999s", "NaNs", "99999999999999999999s"} {
		if _, err := ParseTime(bad, start); !errors.Is(err, ErrBadTime) {
			t.Errorf("ParseTime(%q): err = %v, want ErrBadTime", bad, err)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	cases := map[Time]string{
		0: "0ns", 950: "950ns", 12_500: "12.5us", 3_007_000: "3.007ms",
		2_250_000_000: "2.25s", -1500: "-1.5us", 1_000_000: "1ms",
	}
	for in, want := range cases {
		if got := FormatDuration(in); got != want {
			t.Errorf("FormatDuration(%d) = %q, want %q", in, got, want)
		}
	}
}

func TestFormatTimestampRoundTrip(t *testing.T) {
	for _, ts := range []Time{0, 1, 999_999_999, 1412670961_211260539, -5, MinTime, MaxTime} {
		s := FormatTimestamp(ts)
		if ts == MinTime {
			if s != "-9223372036.854775808" {
				t.Errorf("FormatTimestamp(MinTime) = %q", s)
			}
			continue
		}
		if ts < 0 {
			continue // ParseTime reads "-" as a bad time: negative instants are not typed by users.
		}
		back, err := ParseTime(s, 0)
		if err != nil || back != ts {
			t.Errorf("ParseTime(FormatTimestamp(%d) = %q) = %d, %v", ts, s, back, err)
		}
	}
	if got := FormatTimestamp(1_000_000_001); got != "1.000000001" {
		t.Errorf("FormatTimestamp = %q", got)
	}
}
