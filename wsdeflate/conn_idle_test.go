package wsdeflate

import (
	"context"
	"testing"
	"time"
)

// liveState reports whether c holds a live encoder or decoder.
func liveState(c *Conn) (encoder, decoder bool) {
	c.msgMu.Lock()
	encoder = c.comp.fw != nil
	c.msgMu.Unlock()
	c.dmu.Lock()
	decoder = c.decomp.fr != nil
	c.dmu.Unlock()
	return encoder, decoder
}

func TestIdleConnectionReleasesItsCodecState(t *testing.T) {
	url, _ := echoServer(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := Dial(ctx, url, &DialOptions{IdleRelease: 20 * time.Millisecond})
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer c.Close(StatusNormalClosure, "")
	roundTrip := func(i int) {
		t.Helper()
		msg := jsonMessage(uint64(i), 1000)
		if err := c.Write(ctx, MessageText, msg); err != nil {
			t.Fatalf("Write: %v", err)
		}
		if _, got, err := c.Read(ctx); err != nil || string(got) != string(msg) {
			t.Fatalf("echo %d: %v", i, err)
		}
	}
	roundTrip(0)
	if enc, dec := liveState(c); !enc || !dec {
		t.Fatalf("right after a message: live encoder %t, decoder %t; want both", enc, dec)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		enc, dec := liveState(c)
		if !enc && !dec {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 5s idle: live encoder %t, decoder %t; want both released", enc, dec)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The context survives the release (RFC 7692 §7.2.1 takeover).
	roundTrip(1)
}

func TestNegativeIdleReleaseKeepsCodecState(t *testing.T) {
	url, _ := echoServer(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := Dial(ctx, url, &DialOptions{IdleRelease: -1})
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer c.Close(StatusNormalClosure, "")
	if err := c.Write(ctx, MessageText, jsonMessage(1, 1000)); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if _, _, err := c.Read(ctx); err != nil {
		t.Fatalf("Read: %v", err)
	}
	time.Sleep(3 * DefaultIdleRelease / 2)
	if enc, dec := liveState(c); !enc || !dec {
		t.Errorf("with IdleRelease -1: live encoder %t, decoder %t; want both kept", enc, dec)
	}
}
