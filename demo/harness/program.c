/* program.c -- GLSL programs for the demos (and the view's benchmark). */
#include "harness/harness.h"

#include <stdio.h>
#include <stdlib.h>

static GLuint shader(GLenum kind, const char *src)
{
    GLuint s = glCreateShader(kind);
    GLint ok = 0;
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        fprintf(stderr, "shader does not compile:\n%s\n", log);
        exit(1);
    }
    return s;
}

GLuint demo_program(const char *vertex, const char *fragment)
{
    GLuint p = glCreateProgram(), v = shader(GL_VERTEX_SHADER, vertex), f = shader(GL_FRAGMENT_SHADER, fragment);
    GLint ok = 0;
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        fprintf(stderr, "GL program does not link\n");
        exit(1);
    }
    return p;
}
