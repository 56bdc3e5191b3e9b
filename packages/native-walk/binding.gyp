{
  "targets": [
    {
      "target_name": "dms_native_walk",
      "sources": ["src/binding.c", "src/walker.c", "src/batch.c"],
      "cflags": ["-O2", "-std=gnu11", "-Wall", "-Wextra", "-pthread"],
      "ldflags": ["-pthread"],
      "defines": ["NAPI_VERSION=8"],
      "conditions": [["OS=='win'", { "type": "none" }]]
    }
  ]
}
