package wsdeflate_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/squeezehttp/squeeze/wsdeflate"
)

// An echo server and a client that talk with permessage-deflate, negotiated
// by Accept and Dial with their zero options.
func ExampleAccept() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := wsdeflate.Accept(w, r, nil)
		if err != nil {
			return // Accept has answered with an HTTP error
		}
		for {
			typ, msg, err := c.Read(r.Context())
			if err != nil {
				return // the client closed, or the connection failed
			}
			if err := c.Write(r.Context(), typ, msg); err != nil {
				return
			}
		}
	}))
	defer srv.Close()

	ctx := context.Background()
	c, _, err := wsdeflate.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close(wsdeflate.StatusNormalClosure, "")
	fmt.Println(c.Extensions())

	msg := `{"greeting":"` + strings.Repeat("hello ", 40) + `"}` // 128 bytes or more: compressed
	if err := c.Write(ctx, wsdeflate.MessageText, []byte(msg)); err != nil {
		fmt.Println(err)
		return
	}
	_, echo, err := c.Read(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(echo) == msg)
	// Output:
	// permessage-deflate
	// true
}
