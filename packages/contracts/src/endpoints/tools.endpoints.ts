import { z } from 'zod';
import { errorResponse, idParam } from '../common';
import { endpoint } from '../endpoint';
import {
  adminTask,
  adminTaskList,
  adminTaskQuery,
  createTaskBody,
  savedTask,
  saveTaskBody,
  task,
  taskDownloads,
  taskList,
  taskListQuery,
  taskPartialPreview,
  taskPreviews,
  toolsOverview,
  toolsUploadBody,
  toolsUploadTicket,
  voiceList,
} from '../tools';

/**
 * 400 bad input (extension, link), 402 NOT_ENOUGH_CREDITS, 409 TASKS_RUNNING, 413 too long
 * (AUDIO_TOO_LONG) or too big, 422 a link whose download failed (LINK_FAILED).
 */
const errors = {
  400: errorResponse,
  401: errorResponse,
  402: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  413: errorResponse,
  422: errorResponse,
};
const base = { tags: ['tools'], auth: true } as const;

/** The AI tools: Voice Conversion (Revoice) and Stem Separation tasks, their history and results. */
export const toolEndpoints = {
  overview: endpoint({
    ...base,
    method: 'GET',
    path: '/api/tools',
    summary: 'The credits line, whether a task is running, the limits and the engines',
    responses: { 200: toolsOverview, ...errors },
  }),
  voices: endpoint({
    ...base,
    method: 'GET',
    path: '/api/tools/voices',
    summary: 'The six voices of Voice Conversion, in order (the default first)',
    responses: { 200: voiceList, ...errors },
  }),
  upload: endpoint({
    ...base,
    method: 'POST',
    path: '/api/tools/uploads',
    summary: "Open an upload for a task's input (parts go through /api/uploads/:id/parts)",
    body: toolsUploadBody,
    responses: { 201: toolsUploadTicket, ...errors },
  }),
  list: endpoint({
    ...base,
    method: 'GET',
    path: '/api/tools/tasks',
    summary: 'My tasks, newest first (name search)',
    query: taskListQuery,
    responses: { 200: taskList, ...errors },
  }),
  create: endpoint({
    ...base,
    method: 'POST',
    path: '/api/tools/tasks',
    summary: 'Start a task: checks the input (extension, duration), running tasks and credits',
    body: createTaskBody,
    responses: { 201: task, ...errors },
  }),
  get: endpoint({
    ...base,
    method: 'GET',
    path: '/api/tools/tasks/:id',
    summary: 'One task with its sessions and outputs',
    params: idParam,
    responses: { 200: task, ...errors },
  }),
  remove: endpoint({
    ...base,
    method: 'DELETE',
    path: '/api/tools/tasks/:id',
    summary: 'Delete a task and its files (a running one is cancelled first)',
    params: idParam,
    responses: { 204: z.null(), ...errors },
  }),
  downloads: endpoint({
    ...base,
    method: 'GET',
    path: '/api/tools/tasks/:id/downloads',
    summary: "Signed URLs of the task's data, saved under the spec's names",
    params: idParam,
    responses: { 200: taskDownloads, ...errors },
  }),
  previews: endpoint({
    ...base,
    method: 'GET',
    path: '/api/tools/tasks/:id/previews',
    summary: 'Each output with a playable URL and its waveform peaks',
    params: idParam,
    responses: { 200: taskPreviews, ...errors },
  }),
  partialPreview: endpoint({
    ...base,
    method: 'GET',
    path: '/api/tools/tasks/:id/partial-preview',
    summary: "The finished start of a running separation's stems, playable while the rest runs",
    params: idParam,
    responses: { 200: taskPartialPreview, ...errors },
  }),
  save: endpoint({
    ...base,
    method: 'POST',
    path: '/api/tools/tasks/:id/save',
    summary: 'Save outputs to the library: attachments of the input version, or new projects beside it',
    params: idParam,
    body: saveTaskBody,
    responses: { 201: savedTask, ...errors },
  }),
};

const admin = { tags: ['admin'], auth: true } as const;

/** The task queue in the admin area (administrators only). */
export const adminToolEndpoints = {
  tasks: endpoint({
    ...admin,
    method: 'GET',
    path: '/api/admin/tools/tasks',
    summary: 'Tasks running and pending (or failed, or all), oldest first',
    query: adminTaskQuery,
    responses: { 200: adminTaskList, ...errors },
  }),
  cancel: endpoint({
    ...admin,
    method: 'POST',
    path: '/api/admin/tools/tasks/:id/cancel',
    summary: 'Cancel a pending or running task: it fails with "Cancelled by an administrator", no charge',
    params: idParam,
    responses: { 200: adminTask, ...errors },
  }),
};
