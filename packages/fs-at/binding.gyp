{
  "targets": [
    {
      "target_name": "fs_at",
      "sources": ["src/fs-at.c"],
      "cflags": ["-Wall", "-Wextra", "-Werror"]
    }
  ]
}
