{
  "targets": [
    {
      "target_name": "pid_namespace",
      "sources": ["src/pid-namespace.c"],
      "cflags": ["-Wall", "-Wextra", "-Werror"]
    }
  ]
}
