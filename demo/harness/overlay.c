/* overlay.c -- text over the picture: stb_easy_font's quads drawn as triangles
 * with a tiny shader, on a translucent dark band. */
#include "harness/harness.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb/stb_easy_font.h>

enum { MAX_CHARS = 2048 };

static GLuint prog, vao, vbo, ibo;
static GLint loc_screen;

typedef struct vertex {
    float x, y, z;
    unsigned char rgba[4];
} vertex;

static const char *vs = "#version 330 core\n"
                        "layout(location = 0) in vec3 pos;\n"
                        "layout(location = 1) in vec4 col;\n"
                        "uniform vec2 screen;\n"
                        "out vec4 c;\n"
                        "void main() {\n"
                        "    c = col;\n"
                        "    gl_Position = vec4(pos.x / screen.x * 2.0 - 1.0, 1.0 - pos.y / screen.y * 2.0, 0, 1);\n"
                        "}\n";
static const char *fs = "#version 330 core\n"
                        "in vec4 c;\n"
                        "out vec4 frag;\n"
                        "void main() { frag = c; }\n";

void demo_overlay_init(void)
{
    enum { QUADS = MAX_CHARS * 8 };
    unsigned *idx = malloc(sizeof *idx * QUADS * 6);
    for (unsigned q = 0; q < QUADS; q++) {
        static const unsigned corner[6] = { 0, 1, 2, 0, 2, 3 };
        for (int k = 0; k < 6; k++)
            idx[6 * q + k] = 4 * q + corner[k];
    }
    prog = demo_program(vs, fs);
    loc_screen = glGetUniformLocation(prog, "screen");
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof(vertex) * QUADS * 4, NULL, GL_STREAM_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(vertex), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(vertex), (void *)offsetof(vertex, rgba));
    glGenBuffers(1, &ibo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof *idx * QUADS * 6, idx, GL_STATIC_DRAW);
    glBindVertexArray(0);
    free(idx);
}

void demo_overlay_fini(void)
{
    glDeleteBuffers(1, &vbo);
    glDeleteBuffers(1, &ibo);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(prog);
}

/* A solid rectangle as one stb_easy_font-style quad. */
static int quad(vertex *v, float x0, float y0, float x1, float y1, const unsigned char rgba[4])
{
    float xs[4] = { x0, x1, x1, x0 }, ys[4] = { y0, y0, y1, y1 };
    for (int k = 0; k < 4; k++) {
        v[k].x = xs[k];
        v[k].y = ys[k];
        v[k].z = 0;
        memcpy(v[k].rgba, rgba, 4);
    }
    return 1;
}

void demo_overlay_draw(const char *text, int fb_width, int fb_height)
{
    static vertex buf[MAX_CHARS * 8 * 4];
    static const unsigned char band[4] = { 0, 0, 0, 150 }, white[4] = { 255, 255, 255, 255 };
    char copy[MAX_CHARS];
    int quads, lines = 1, width;
    float scale;
    snprintf(copy, sizeof copy, "%s", text);
    for (const char *p = copy; *p; p++)
        lines += *p == '\n';
    width = stb_easy_font_width(copy);
    scale = fb_width >= 2 * (width + 8) ? 2.0f : (float)fb_width / (width + 8);
    quads = quad(buf, 0, 0, (float)(width + 8), (float)(lines * 12 + 6), band);
    quads += stb_easy_font_print(4, 4, copy, (unsigned char *)white, buf + 4 * quads,
                                 (int)sizeof buf - 4 * quads * (int)sizeof(vertex));
    for (int k = 0; k < 4 * quads; k++) { /* twice stb_easy_font's size, but no wider than the window */
        buf[k].x *= scale;
        buf[k].y *= scale;
    }
    glUseProgram(prog);
    glUniform2f(loc_screen, (float)fb_width, (float)fb_height);
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof(vertex) * 4 * quads, buf);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDrawElements(GL_TRIANGLES, 6 * quads, GL_UNSIGNED_INT, (void *)0);
    glDisable(GL_BLEND);
    glBindVertexArray(0);
    glUseProgram(0);
}
