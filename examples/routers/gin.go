package main

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/squeezehttp/squeeze/encoding"
)

// ginHandler is a gin engine, wrapped as a whole: gin's middleware are
// gin.HandlerFuncs over its own ResponseWriter, and the engine is an
// http.Handler. Serve it with http.ListenAndServe rather than r.Run, which
// serves the engine unwrapped.
func ginHandler() http.Handler {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.Use(gin.Recovery())
	r.GET(itemsPath, func(c *gin.Context) {
		c.Header("ETag", itemsETag)
		c.Data(http.StatusOK, "application/json", []byte(itemsJSON))
	})
	r.GET(missingItemPath, func(c *gin.Context) {
		c.Data(http.StatusNotFound, "application/json", []byte(notFoundJSON))
	})
	return encoding.Handler(r)
}
