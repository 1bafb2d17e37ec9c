// placeholder
export const exportsModule = { name: 'exports' };
