/* quad.c -- what the image demos draw with: a full-screen quad that samples
 * through the demo's fragment shader, and the textures it samples. */
#include "harness/harness.h"

/* Four vertices from gl_VertexID, no vertex buffer: uv runs over [0,1]^2. */
static const char *vertex_src = "#version 330 core\n"
                                "out vec2 uv;\n"
                                "void main() {\n"
                                "    vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1);\n"
                                "    uv = p;\n"
                                "    gl_Position = vec4(2.0 * p - 1.0, 0, 1);\n"
                                "}\n";

void demo_quad_init(demo_quad *q, const char *fragment)
{
    q->program = demo_program(vertex_src, fragment);
    glGenVertexArrays(1, &q->vao);
}

void demo_quad_draw(const demo_quad *q, const demo *d)
{
    int side = d->fb_width < d->fb_height ? d->fb_width : d->fb_height;
    glViewport((d->fb_width - side) / 2, (d->fb_height - side) / 2, side, side);
    glUseProgram(q->program);
    glBindVertexArray(q->vao);
    demo_draw_begin(d);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    demo_draw_end(d);
    glBindVertexArray(0);
    glUseProgram(0);
    glViewport(0, 0, d->fb_width, d->fb_height);
}

void demo_quad_fini(demo_quad *q)
{
    glDeleteProgram(q->program);
    glDeleteVertexArrays(1, &q->vao);
    q->program = q->vao = 0;
}

GLuint demo_texture(GLenum format, int w, int h, GLenum filter)
{
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexStorage2D(GL_TEXTURE_2D, 1, format, w, h);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    return t;
}
