package tui

import (
	"fmt"
	"testing"
)

func TestScratchView(t *testing.T) {
	hs := newHarness(t, newDemoTrace(), 80, 24, true)
	fmt.Println(hs.view())
	hs.keys("w", "w", "w")
	fmt.Println(hs.view())
}
